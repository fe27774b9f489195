import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer } from './bundle.ts';

/**
 * What `npm start` builds before it serves, told in two lines: Vite's line per file (about 160
 * of them) would push the address to open out of sight, on a terminal and in a log alike. Vite
 * still prints its warnings and errors. The web client goes where the server looks for it
 * (WEB_DIST, else apps/web/dist).
 */
const repo = fileURLToPath(new URL('../../..', import.meta.url));
const webDist = path.resolve(process.env.WEB_DIST ?? path.join(repo, 'apps/web/dist'));
const serverBundle = fileURLToPath(new URL('../dist/main.js', import.meta.url));

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const size = (bytes: number) =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.round(bytes / 1000)} kB`;
/** A path in the repository relative to its root, any other in full. */
const shown = (file: string) => {
  const inRepo = path.relative(repo, file);
  return inRepo.startsWith('..') || path.isAbsolute(inRepo) ? file : inRepo;
};

/** The scripts and styles the browser loads, and what the brotli copies beside them weigh. */
function webAssets(dist: string): { files: number; bytes: number; brotli: number } {
  const assets = path.join(dist, 'assets');
  const total = { files: 0, bytes: 0, brotli: 0 };
  for (const name of fs.readdirSync(assets)) {
    if (!/\.(js|css)$/.test(name)) continue;
    total.files += 1;
    total.bytes += fs.statSync(path.join(assets, name)).size;
    const br = path.join(assets, `${name}.br`);
    total.brotli += fs.existsSync(br) ? fs.statSync(br).size : 0;
  }
  return total;
}

function buildWeb(): Promise<void> {
  const child = spawn(
    'npm',
    [
      'run',
      '--silent',
      'build',
      '-w',
      '@iron-curtain/web',
      '--',
      '--logLevel',
      'warn',
      '--outDir',
      webDist,
      '--emptyOutDir',
    ],
    { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`the web client's build failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

try {
  let started = performance.now();
  await buildWeb();
  const web = webAssets(webDist);
  process.stdout.write(
    `Built the web client in ${seconds(started)}: ${web.files} scripts and styles, ${size(web.bytes)} (${size(web.brotli)} as brotli), in ${shown(webDist)}\n`,
  );
  started = performance.now();
  await bundleServer(serverBundle);
  process.stdout.write(
    `Built the server in ${seconds(started)}: ${size(fs.statSync(serverBundle).size)}, in ${shown(serverBundle)}\n`,
  );
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
