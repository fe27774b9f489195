import { describe, expect, it } from 'vitest';
import { relyingParty } from '../../src/accounts/relying-party.ts';
import { envSchema } from '../../src/ops/config.ts';

const request = (protocol: string, host: string) => ({ protocol, host });

describe('the relying party of passkey ceremonies', () => {
  it("is PUBLIC_URL's host and origin, whatever host the request names", () => {
    expect(relyingParty('https://play.example.org', request('http', '10.0.0.5:8000'))).toEqual({
      rpID: 'play.example.org',
      origin: 'https://play.example.org',
    });
  });

  it("is the request's own host on localhost when PUBLIC_URL is unset, over plain http too", () => {
    expect(relyingParty(undefined, request('http', 'localhost:8000'))).toEqual({
      rpID: 'localhost',
      origin: 'http://localhost:8000',
    });
  });

  it('refuses plain http anywhere but localhost, saying HTTPS is needed', () => {
    for (const [url, host] of [
      ['http://play.example.org', 'play.example.org'],
      [undefined, '192.168.1.20:8000'],
    ] as const) {
      expect(() => relyingParty(url, request('http', host))).toThrow(
        expect.objectContaining({
          status: 400,
          code: 'HTTPS_REQUIRED',
          message: expect.stringMatching(/HTTPS/),
        }),
      );
    }
  });

  it('takes only an origin for PUBLIC_URL, a trailing slash forgiven', () => {
    expect(envSchema.shape.PUBLIC_URL.parse('https://play.example.org/')).toBe(
      'https://play.example.org',
    );
    for (const bad of [
      'https://play.example.org/games',
      'play.example.org',
      'ftp://play.example.org',
    ]) {
      expect(envSchema.shape.PUBLIC_URL.safeParse(bad).success, bad).toBe(false);
    }
  });
});
