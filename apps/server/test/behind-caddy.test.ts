import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caddy, startCaddy } from './caddy.ts';
import { type Nginx, startNginx } from './nginx.ts';
import { startServer, type TestServer } from './support.ts';

/**
 * The compose file's https profile without containers: deploy/Caddyfile run by Debian's Caddy
 * in front of a server with TRUST_PROXY, and in front of deploy/nginx.conf (believing Caddy's
 * address only) in front of it. Players connect from loopback addresses of their own; each
 * sends an X-Forwarded-For of its choosing, which must change nothing.
 */
const LIMIT = 3;

let server: TestServer;
let caddy: Caddy;
let nginx: Nginx;
let caddyBeforeNginx: Caddy;

beforeAll(async () => {
  server = await startServer({
    env: { TRUST_PROXY: 'true', LOBBY_WRITES_PER_MINUTE: String(LIMIT) },
  });
  const upstream = server.url.replace('http://', '');
  caddy = await startCaddy(upstream);
  // Caddy connects to nginx from 127.0.0.1: the one peer nginx believes here.
  nginx = await startNginx([upstream, upstream], undefined, '127.0.0.1');
  caddyBeforeNginx = await startCaddy(nginx.url.replace('http://', ''));
});

afterAll(async () => {
  await caddy?.stop();
  await caddyBeforeNginx?.stop();
  await nginx?.stop();
  await server?.close();
});

/** A new match asked for from the loopback address `from`, claiming `forwarded` as its address. */
function createMatch(url: string, from: string, forwarded: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ name: 'Ann' });
    const req = http.request(
      `${url}/api/matches`,
      {
        method: 'POST',
        localAddress: from,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-forwarded-for': forwarded,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.each([
  ['Caddy', () => caddy.url, '127.1.49.1', '127.1.49.2'],
  ['Caddy then nginx', () => caddyBeforeNginx.url, '127.1.49.3', '127.1.49.4'],
])('behind %s', (_, url, ann, boris) => {
  it('counts two players from two addresses apart, whatever X-Forwarded-For each sends', async () => {
    // Ann spends her budget, each time claiming another address.
    for (let i = 0; i < LIMIT; i++) {
      expect(await createMatch(url(), ann, `203.0.113.${i + 1}`)).toBe(201);
    }
    expect(await createMatch(url(), ann, '203.0.113.99')).toBe(429);
    // Boris claims to be the addresses Ann claimed, and Ann herself: he still has his own budget.
    expect(await createMatch(url(), boris, '203.0.113.1')).toBe(201);
    expect(await createMatch(url(), boris, ann)).toBe(201);
    expect(await createMatch(url(), boris, `${ann}, ${ann}`)).toBe(201);
    expect(await createMatch(url(), boris, boris)).toBe(429);
  });
});

it('nginx behind Caddy counts the player too (its own limits and log), not Caddy', async () => {
  const addresses = nginx
    .accessLog()
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' ')[0]);
  expect(addresses.length).toBeGreaterThanOrEqual(2 * LIMIT);
  expect(new Set(addresses)).toEqual(new Set(['127.1.49.3', '127.1.49.4']));
});
