import fs from 'node:fs';
import path from 'node:path';
import { errorCodes, lobbyErrorCodes, refusalCodes } from '@iron-curtain/protocol';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../src');

/** Every source file of the server, read once. */
const sources = fs
  .readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => fs.readFileSync(path.join(SRC, file), 'utf8'))
  .join('\n');

/** The first captured group that matched, per match. */
const codesOf = (pattern: RegExp) => [
  ...new Set([...sources.matchAll(pattern)].map((m) => m.slice(1).find(Boolean) as string)),
];

describe('the error codes the server answers with', () => {
  it('are all listed in the protocol, so every one has a text in the client', () => {
    const lobby = codesOf(/LobbyError\(\s*\d{3},\s*'([A-Z_]+)'/g);
    expect(lobby.length).toBeGreaterThan(5);
    expect(
      lobby.filter((c) => !(lobbyErrorCodes as readonly string[]).includes(c as string)),
    ).toEqual([]);
    // `refused(code, …)` answers a socket; `limits.refused(reason, …)` only counts in /metrics.
    const sent = codesOf(/(?:code: '([A-Z_]+)',\s*message|(?<![.\w])refused\('([A-Z_]+)')/g);
    expect(sent.length).toBeGreaterThan(5);
    expect(sent.filter((c) => !(errorCodes as readonly string[]).includes(c as string))).toEqual(
      [],
    );
    expect(refusalCodes).toContain('WAITING_FOR_OPPONENT');
  });
});
