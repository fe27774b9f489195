import { errorResponseSchema } from '@iron-curtain/protocol';
import type { Middleware } from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lobbyRouter } from '../src/lobby/lobby-routes.ts';
import { matchRouter } from '../src/lobby/match-routes.ts';
import { createAndJoin, startServer, type TestServer } from './support.ts';

/** Every method a client might send, including one no route knows. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PURGE'];

/** The server's routes, read from the routers themselves: a new route is walked too. */
function routeTable(): Map<string, Set<string>> {
  const none = {} as never;
  const pass: Middleware = (_, next) => next();
  const routers = [
    lobbyRouter(none, none, none, none, none, none, none, pass),
    matchRouter(none, none, none, none, none, pass),
  ];
  const table = new Map<string, Set<string>>();
  // Layers without methods are the routers' middleware (the write limit), not routes.
  for (const layer of routers.flatMap((r) => r.stack).filter((l) => l.methods.length > 0)) {
    const route = String(layer.path);
    const methods = table.get(route) ?? new Set<string>();
    for (const method of layer.methods) methods.add(method);
    table.set(route, methods);
  }
  return table;
}

let server: TestServer;
let matchID: string;
beforeAll(async () => {
  server = await startServer();
  matchID = (await createAndJoin(server.url)).created.matchID;
});
afterAll(async () => {
  await server.close();
});

describe('error answers of the HTTP API', () => {
  it('are JSON in the protocol error shape for every route and method; 405 names the allowed methods', async () => {
    const table = routeTable();
    expect(table.size).toBeGreaterThan(8);
    const checked: string[] = [];
    for (const [route, allowed] of table) {
      const url = `${server.url}${route.replace(':id', matchID)}`;
      for (const method of METHODS) {
        const response = await fetch(url, { method });
        // A live stream (server-sent events) never ends: its answer is its status and headers.
        const live = response.headers.get('content-type')?.startsWith('text/event-stream');
        const text = live ? '' : await response.text();
        if (live) await response.body?.cancel();
        const where = `${method} ${route}`;
        if (method === 'PURGE') expect(response.status, where).toBe(501);
        else if (!allowed.has(method) && method !== 'OPTIONS') {
          expect(response.status, where).toBe(405);
        }
        if (response.status === 405 || method === 'OPTIONS') {
          const named = (response.headers.get('allow') ?? '').split(/,\s*/).sort();
          expect(named, where).toEqual([...allowed].sort());
        }
        if (response.status < 400) continue;
        checked.push(where);
        if (method === 'HEAD') continue;
        expect(response.headers.get('content-type'), where).toMatch(/^application\/json/);
        const parsed = errorResponseSchema.safeParse(JSON.parse(text));
        expect(parsed.success, `${where}: ${text}`).toBe(true);
      }
    }
    // Wrong methods, bodiless writes and a record asked for too early all answered above.
    expect(checked).toContain('DELETE /api/matches');
    expect(checked).toContain('POST /api/matches');
    expect(checked).toContain('GET /api/matches/:id/record');
  });

  it('are JSON for paths under /api that no route serves, whatever the method', async () => {
    for (const method of METHODS.filter((m) => m !== 'HEAD')) {
      const response = await fetch(`${server.url}/api/no-such-thing`, { method });
      expect(response.status, method).toBeGreaterThanOrEqual(400);
      const parsed = errorResponseSchema.safeParse(await response.json());
      expect(parsed.success, method).toBe(true);
    }
  });
});
