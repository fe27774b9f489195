import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const WEB = path.resolve(import.meta.dirname, '..');
const PUBLIC = path.join(WEB, 'public');

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): string {
  const data = fs.readFileSync(file);
  expect(data.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${data.readUInt32BE(16)}x${data.readUInt32BE(20)}`;
}

describe('the site icon and web app manifest', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(PUBLIC, 'manifest.webmanifest'), 'utf8'));

  it('name every icon the manifest lists, each file present at the size it claims', () => {
    expect(manifest).toMatchObject({ name: expect.any(String), short_name: expect.any(String) });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    const pngs = manifest.icons.filter((i: { type: string }) => i.type === 'image/png');
    // Android's home-screen tile needs 192 and 512, and a maskable one fills the whole shape.
    expect(pngs.map((i: { sizes: string }) => i.sizes)).toEqual(
      expect.arrayContaining(['192x192', '512x512']),
    );
    expect(manifest.icons.some((i: { purpose?: string }) => i.purpose === 'maskable')).toBe(true);
    for (const icon of pngs) expect(pngSize(path.join(PUBLIC, icon.src))).toBe(icon.sizes);
  });

  it('link the favicon, the manifest and its theme colour from every page', () => {
    const html = fs.readFileSync(path.join(WEB, 'index.html'), 'utf8');
    const hrefs = [...html.matchAll(/<link [^>]*href="([^"]+)"/g)].map((m) => m[1] as string);
    for (const href of hrefs) expect(fs.existsSync(path.join(PUBLIC, href))).toBe(true);
    expect(hrefs).toEqual(expect.arrayContaining(['/favicon.ico', '/manifest.webmanifest']));
    expect(html).toContain(`<meta name="theme-color" content="${manifest.theme_color}" />`);
  });

  it('keep favicon.ico a real ICO of PNG images', () => {
    const ico = fs.readFileSync(path.join(PUBLIC, 'favicon.ico'));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const count = ico.readUInt16LE(4);
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      const offset = ico.readUInt32LE(6 + 16 * i + 12);
      expect(ico.subarray(offset + 1, offset + 4).toString('latin1')).toBe('PNG');
    }
  });
});
