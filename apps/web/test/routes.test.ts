import { invitePath, profilePath } from '@iron-curtain/protocol';
import { describe, expect, it } from 'vitest';
import { parseRoute } from '../src/app/routes.ts';

describe('routes', () => {
  it('reads the home, match and spectator pages', () => {
    expect(parseRoute('/')).toEqual({ page: 'home' });
    expect(parseRoute('/match/abc_DEF-123')).toEqual({ page: 'match', matchID: 'abc_DEF-123' });
    expect(parseRoute('/watch/abc_DEF-123')).toEqual({ page: 'watch', matchID: 'abc_DEF-123' });
  });

  it('reads the invite link the lobby hands out, token in the fragment', () => {
    const link = new URL(invitePath('abcdefgh12', 'tok-EN_123'), 'http://localhost');
    expect(parseRoute(link.pathname, link.hash)).toEqual({
      page: 'join',
      matchID: 'abcdefgh12',
      invite: 'tok-EN_123',
    });
    expect(parseRoute('/join/abcdefgh12', '')).toEqual({
      page: 'join',
      matchID: 'abcdefgh12',
      invite: null,
    });
  });

  it("reads a player's profile at the address a profile link makes", () => {
    expect(parseRoute(profilePath('Marta_2'))).toEqual({ page: 'profile', username: 'Marta_2' });
    expect(parseRoute('/@/')).toEqual({ page: 'notFound', path: '/@/' });
  });

  it('answers anything else with a not-found page', () => {
    for (const path of [
      '/match/short',
      '/match',
      '/watch/abcdefgh12/x',
      '/nope',
      '/match/%E0%A4%A',
    ]) {
      expect(parseRoute(path).page).toBe('notFound');
    }
  });
});
