import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageModule } from '../src/edge/static-files.ts';
import { request, startServer, type TestServer, tempDir } from './support.ts';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as sent, still encoded. */
  bytes: Buffer;
}

/** A GET with exactly these headers (fetch would add its own Accept-Encoding and decode). */
function get(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            bytes: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject);
  });
}

const decode: Record<string, (b: Buffer) => Buffer> = {
  gzip: zlib.gunzipSync,
  br: zlib.brotliDecompressSync,
};

// A stand-in for Vite's output: a page and a content-hashed script well over 1 kB.
const INDEX =
  '<!doctype html><html><head><title>Iron Curtain Online</title>' +
  '<script type="module" src="/assets/app-1a2b.js"></script></head><body></body></html>';
const SCRIPT = `export const cards = ${JSON.stringify(
  Array.from({ length: 400 }, (_, i) => ({ id: `card-${i}`, region: 'europe' })),
)};\n`;

/**
 * A stand-in for Vite's build manifest: the shell (named in INDEX already), the home page, and
 * the match page with a chunk it shares with the spectator page and a style of its own.
 */
const MANIFEST = {
  'index.html': { file: 'assets/app-1a2b.js', isEntry: true },
  'src/lobby/HomePage.tsx': { file: 'assets/HomePage-5e6f.js', imports: ['index.html'] },
  'src/match/PlayPage.tsx': {
    file: 'assets/PlayPage-7a8b.js',
    imports: ['index.html', '_MatchView-9c0d.js'],
  },
  'src/match/MatchScreen.tsx': {
    file: 'assets/MatchScreen-1e2f.js',
    imports: ['_MatchView-9c0d.js'],
  },
  '_MatchView-9c0d.js': { file: 'assets/MatchView-9c0d.js', css: ['assets/MatchView-3a4b.css'] },
};

/** The scripts and styles a page's HTML names. */
const named = (html: string) => [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]);

/** Compressed harder than a server would per request, so a copy made on the fly would differ. */
const BUILT = {
  br: zlib.brotliCompressSync(SCRIPT, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  gzip: zlib.gzipSync(SCRIPT, { level: 9 }),
};

let server: TestServer;
// The client's folder, with a file beside it that must never be served.
let parent: string;
beforeAll(async () => {
  parent = tempDir();
  const dist = path.join(parent, 'dist');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dist, 'assets', 'app-1a2b.js'), SCRIPT);
  // The build's compressed copies (vite-plugin-compression2 writes them beside each asset).
  fs.writeFileSync(path.join(dist, 'assets', 'app-1a2b.js.br'), BUILT.br);
  fs.writeFileSync(path.join(dist, 'assets', 'app-1a2b.js.gz'), BUILT.gzip);
  // An asset the build left without copies.
  fs.writeFileSync(path.join(dist, 'assets', 'bare-3c4d.js'), SCRIPT);
  fs.writeFileSync(path.join(parent, 'secret.txt'), 'outside the client');
  fs.mkdirSync(path.join(dist, '.vite'));
  fs.writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  server = await startServer({ env: { WEB_DIST: dist } });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(parent, { recursive: true, force: true });
});

describe('the web client over HTTP', () => {
  it.each(['br', 'gzip'])(
    'sends a script %s-compressed to a browser that accepts it',
    async (encoding) => {
      const answer = await get(`${server.url}/assets/app-1a2b.js`, { 'accept-encoding': encoding });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.bytes.length).toBeLessThan(SCRIPT.length / 4);
      expect(decode[encoding]?.(answer.bytes).toString()).toBe(SCRIPT);
    },
  );

  it.each(['br', 'gzip'] as const)(
    "sends the build's %s copy of an asset as it is, without compressing it again",
    async (encoding) => {
      const answer = await get(`${server.url}/assets/app-1a2b.js`, { 'accept-encoding': encoding });
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.bytes.equals(BUILT[encoding])).toBe(true);
    },
  );

  it('still compresses an asset the build left without copies', async () => {
    const answer = await get(`${server.url}/assets/bare-3c4d.js`, { 'accept-encoding': 'gzip' });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.gunzipSync(answer.bytes).toString()).toBe(SCRIPT);
  });

  it('sends the script as it is to a client that accepts no encoding', async () => {
    const answer = await get(`${server.url}/assets/app-1a2b.js`);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.bytes.toString()).toBe(SCRIPT);
  });

  it('lets browsers keep content-hashed assets for good, and revalidate pages', async () => {
    const asset = await get(`${server.url}/assets/app-1a2b.js`);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await get(`${server.url}/rules`);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.bytes.toString()).toBe(INDEX);
  });

  it.each(['/join/abc123', '/replay/abc123', '/no/such/page'])(
    'answers the client route %s with the page, for the client to route',
    async (route) => {
      const answer = await get(`${server.url}${route}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.bytes.toString()).toBe(INDEX);
    },
  );

  it("names the match page's own code in its HTML, to download beside the shell", async () => {
    const answer = await get(`${server.url}/match/abc123`);
    expect(answer.headers['cache-control']).toBe('no-cache');
    const html = answer.bytes.toString();
    expect(named(html)).toEqual([
      '/assets/app-1a2b.js',
      '/assets/PlayPage-7a8b.js',
      '/assets/MatchView-9c0d.js',
      '/assets/MatchView-3a4b.css',
    ]);
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/PlayPage-7a8b.js">',
    );
    expect(html).toContain(
      '<link rel="preload" as="style" crossorigin href="/assets/MatchView-3a4b.css">',
    );
    expect(html).not.toContain('<script>');
  });

  it("names the home page's code on the home page, and not the match page's", async () => {
    const html = (await get(`${server.url}/`)).bytes.toString();
    expect(named(html)).toEqual(['/assets/app-1a2b.js', '/assets/HomePage-5e6f.js']);
    const spectator = (await get(`${server.url}/watch/abc123`)).bytes.toString();
    expect(named(spectator)).toEqual([
      '/assets/app-1a2b.js',
      '/assets/MatchScreen-1e2f.js',
      '/assets/MatchView-9c0d.js',
      '/assets/MatchView-3a4b.css',
    ]);
  });

  it("never serves the build's manifest", async () => {
    const answer = await get(`${server.url}/.vite/manifest.json`);
    expect(answer.status).toBe(404);
  });

  it.each([
    '/assets/missing-9f9f.js',
    '/assets/app-1a2b.js.br/',
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets/%00.js',
    '/%E0%A4%A.js',
  ])('answers %s with a 404 and never a file outside the client', async (route) => {
    const answer = await get(`${server.url}${route}`);
    expect(answer.status).toBe(404);
    expect(answer.bytes.toString()).not.toContain('outside the client');
    expect(JSON.parse(answer.bytes.toString())).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('compresses large server answers too, and leaves small ones as they are', async () => {
    // A list of public matches, a few kB of JSON.
    for (let i = 0; i < 12; i++) {
      await request(`${server.url}/api/matches`, 'POST', {
        name: `Ann ${i}`,
        visibility: 'public',
      });
    }
    const list = await get(`${server.url}/api/matches?limit=100`, { 'accept-encoding': 'gzip' });
    expect(list.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(list.bytes).toString()).matches).toHaveLength(12);
    const health = await get(`${server.url}/healthz`, { 'accept-encoding': 'gzip' });
    expect(health.status).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
  });
});

describe("the server's map of the client's pages", () => {
  it("names exactly the modules the client loads its pages from (apps/web's pages.ts)", () => {
    const pages = fs.readFileSync(new URL('../../web/src/app/pages.ts', import.meta.url), 'utf8');
    const loaded = [...pages.matchAll(/import\('\.\.\/([^']+)'\)/g)].map((m) => `src/${m[1]}`);
    const routes = ['/', '/join/a', '/match/a', '/watch/a', '/rules', '/tutorial', '/hotseat'];
    routes.push('/replay/a', '/replay', '/decks', '/sign-in', '/sign-up', '/account', '/@/a');
    expect(routes.map(pageModule).sort()).toEqual(loaded.sort());
  });
});
