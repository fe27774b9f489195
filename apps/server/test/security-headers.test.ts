import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, tempDir } from './support.ts';

/** A CSP header as a map from directive to its sources. */
function directives(header: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name, sources);
  }
  return map;
}

let dist: string;
let plain: TestServer;
let tls: TestServer;
beforeAll(async () => {
  dist = tempDir();
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><title>Iron Curtain</title><script type="module" src="/assets/app.js"></script>',
  );
  plain = await startServer({ env: { WEB_DIST: dist } });
  tls = await startServer({
    env: {
      WEB_DIST: dist,
      SERVED_OVER_TLS: 'true',
      FRAME_ANCESTORS: 'https://club.example.org, https://school.example',
    },
  });
});
afterAll(async () => {
  await plain?.close();
  await tls?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('browser protections', () => {
  it('every page, API answer and error carries a policy that allows only our own scripts, styles and socket', async () => {
    for (const where of ['/', '/join/abc', '/api/matches', '/api/nothing', '/healthz']) {
      const response = await fetch(`${plain.url}${where}`);
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('default-src'), where).toEqual(["'self'"]);
      expect(csp.get('script-src'), where).toEqual(["'self'"]);
      expect(csp.get('script-src-attr'), where).toEqual(["'none'"]);
      expect(csp.get('style-src'), where).toEqual(["'self'"]);
      expect(csp.get('connect-src'), where).toEqual(["'self'"]);
      expect(csp.get('object-src'), where).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), where).toEqual(["'none'"]);
      expect(csp.has('upgrade-insecure-requests'), where).toBe(false);
      expect(response.headers.get('x-content-type-options'), where).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), where).toBe('no-referrer');
      expect(response.headers.get('cross-origin-opener-policy'), where).toBe('same-origin');
      expect(response.headers.get('x-frame-options'), where).toBe('DENY');
      expect(response.headers.get('permissions-policy'), where).toMatch(/camera=\(\)/);
      expect(response.headers.get('permissions-policy'), where).not.toMatch(/clipboard/);
      // Over plain http a browser would pin a TLS the site does not have.
      expect(response.headers.get('strict-transport-security'), where).toBeNull();
    }
  });

  it('pins https and lets the named sites embed the pages only when the operator says so', async () => {
    const response = await fetch(`${tls.url}/`);
    expect(response.headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp.get('frame-ancestors')).toEqual([
      'https://club.example.org',
      'https://school.example',
    ]);
    expect(csp.has('upgrade-insecure-requests')).toBe(true);
    // X-Frame-Options cannot name other origins: with embedding allowed it would only block them.
    expect(response.headers.get('x-frame-options')).toBeNull();
  });
});
