// Renders public/icon.svg into the PNG icons and favicon.ico the site and its manifest name.
// Run after changing the SVG: npx tsx apps/web/scripts/icons.ts (drives Debian's Chromium).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../e2e/harness.ts';

const PUBLIC = fileURLToPath(new URL('../public', import.meta.url));
const svg = fs.readFileSync(path.join(PUBLIC, 'icon.svg'), 'utf8');

/** The icon at `size` px; `bleed` fills the square edge to edge, as maskable icons need. */
async function render(size: number, bleed: boolean): Promise<Buffer> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const body = bleed
      ? `<div style="width:${size}px;height:${size}px;background:#1d1d1f;display:grid;place-items:center">
           <img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}" width="${size * 0.8}" height="${size * 0.8}">
         </div>`
      : `<img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}" width="${size}" height="${size}">`;
    await page.setContent(`<body style="margin:0;background:transparent">${body}</body>`);
    return await page.screenshot({
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
    });
  } finally {
    await browser.close();
  }
}

/** An ICO file holding PNG images (every browser since Windows Vista reads PNG entries). */
function ico(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.png)]);
}

const write = (name: string, data: Buffer) => fs.writeFileSync(path.join(PUBLIC, name), data);
write('icon-192.png', await render(192, false));
write('icon-512.png', await render(512, false));
write('icon-maskable-512.png', await render(512, true));
write('apple-touch-icon.png', await render(180, true));
write(
  'favicon.ico',
  ico([
    { size: 16, png: await render(16, false) },
    { size: 32, png: await render(32, false) },
    { size: 48, png: await render(48, false) },
  ]),
);
