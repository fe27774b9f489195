import { type AccountExport, accountExportSchema, apiRoutes } from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from './accounts/browser.ts';
import {
  createAndJoin,
  dropSchema,
  openTestStores,
  type StoreKind,
  startServer,
  type TestServer,
  tempDir,
  uniqueSchema,
} from './support.ts';

const PUBLIC_URL = 'http://localhost:8000';

describe.each(['sqlite', 'postgres'] as StoreKind[])('export my data on %s', (kind) => {
  const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startServer({ env: { PUBLIC_URL }, stores: await openTestStores(kind, where) });
  });
  afterAll(async () => {
    await started?.close();
    if (kind === 'postgres') await dropSchema(where);
  });
  const server = () => started as TestServer;
  const browser = () => new Browser(PUBLIC_URL);

  it('answers one JSON file: the account, its passkeys by name and dates, its games, and no secret', async () => {
    const ann = browser();
    expect((await ann.signUp(server().url, `Exporter_${kind}`)).status).toBe(201);
    const { created, joined } = await createAndJoin(server().url, { side: 'US' });
    await ann.send(`${server().url}${apiRoutes.accountSeats}`, 'POST', {
      seats: [{ matchID: created.matchID, seat: '0', credentials: created.credentials }],
    });
    const response = await fetch(`${server().url}${apiRoutes.accountExport}`, {
      headers: { cookie: ann.cookie as string },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="iron-curtain-Exporter_${kind}.json"`,
    );
    const text = await response.text();
    const data: AccountExport = accountExportSchema.parse(JSON.parse(text));
    expect(data.account.username).toBe(`Exporter_${kind}`);
    expect(data.passkeys).toEqual([
      { name: 'test laptop', createdAt: data.account.createdAt, lastUsedAt: null },
    ]);
    expect(data.games).toMatchObject([
      {
        matchID: created.matchID,
        seat: '0',
        side: 'US',
        name: 'Ann',
        opponent: 'Boris',
        status: 'playing',
        result: null,
      },
    ]);
    // Nothing that would hold a seat or sign in: no credentials, public keys or session ids.
    expect(text).not.toContain(created.credentials);
    expect(text).not.toContain(joined.credentials);
    expect(text).not.toContain(
      ann.authenticator.credentials[0]?.id.toString('base64url') as string,
    );
    expect(text).not.toContain((ann.cookie as string).split('=')[1] as string);
  });

  it('refuses a browser that is not signed in', async () => {
    const answer = await browser().send(`${server().url}${apiRoutes.accountExport}`, 'GET');
    expect([answer.status, answer.body.error?.code]).toEqual([401, 'NOT_SIGNED_IN']);
  });
});
