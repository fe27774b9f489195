/**
 * Initial JavaScript: every script the built index.html loads (entry and modulepreloads) and
 * the chunks they import statically, gzip-compressed; then each page's first download: that
 * shell plus the page's own chunk (which the entry fetches at once) and its static imports,
 * gzip and as served (the build's Brotli copies).
 * Goal: the match page's first download <= 150 kB as served, and no built-in deck version but
 * the default in the initial JavaScript (older ones are only ever needed by the server, which
 * sends a match's deck). Rerun: `npx tsx bench/web-bundle.ts` (add `--no-build` to measure
 * the current apps/web/dist).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { DEFAULT_DECK } from '@iron-curtain/game';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(REPO, 'apps/web/dist');
const GOAL_KB = 150;

if (!process.argv.includes('--no-build')) {
  execFileSync('npm', ['run', 'build', '-w', '@iron-curtain/web'], {
    cwd: REPO,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'ignore',
  });
}

const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
const entries = [
  ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
].map((m) => m[1] as string);

/** The files these load, following static imports and re-exports between chunks ("./x.js"). */
function closure(roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = fs.readFileSync(file, 'utf8');
    for (const m of code.matchAll(
      /(?:^|[;}\s])(?:import|export)\s*(?:[\w${},*\s]+from\s*)?["'](\.\/[^"']+\.js)["']/g,
    )) {
      queue.push(path.join(path.dirname(file), m[1] as string));
    }
  }
  return seen;
}

// Dynamic import() chunks load later, not at first.
const seen = closure(entries.map((src) => path.join(DIST, src)));

const kB = (bytes: number) => (bytes / 1000).toFixed(1);
let raw = 0;
let gzip9 = 0;
let gzip6 = 0;
for (const file of seen) {
  const code = fs.readFileSync(file);
  raw += code.length;
  gzip9 += zlib.gzipSync(code, { level: 9 }).length;
  gzip6 += zlib.gzipSync(code, { level: 6 }).length;
  console.log(`${path.relative(DIST, file)}: ${kB(code.length)} kB`);
}
console.log(`initial JavaScript: ${seen.size} file(s), ${kB(raw)} kB raw`);
console.log(`gzip -9: ${kB(gzip9)} kB, gzip -6: ${kB(gzip6)} kB (goal <= ${GOAL_KB} kB)`);

// The page chunks the entry starts at once for its address (apps/web/src/app/pages.ts).
const served = (file: string) => {
  const br = `${file}.br`;
  return fs.existsSync(br) ? fs.statSync(br).size : fs.statSync(file).size;
};
const assetNames = fs.readdirSync(path.join(DIST, 'assets'));
for (const [label, page] of [
  ['home page', 'HomePage'],
  ['match page', 'PlayPage'],
  ['spectator page', 'MatchScreen'],
] as const) {
  const chunk = assetNames.find((f) => f.startsWith(`${page}-`) && f.endsWith('.js'));
  if (!chunk) continue;
  const files = new Set([...seen, ...closure([path.join(DIST, 'assets', chunk)])]);
  let gz = 0;
  let br = 0;
  for (const file of files) {
    gz += zlib.gzipSync(fs.readFileSync(file), { level: 6 }).length;
    br += served(file);
  }
  console.log(`${label}: ${files.size} file(s), gzip -6 ${kB(gz)} kB, as served ${kB(br)} kB`);
  if (page === 'PlayPage') {
    if (br > GOAL_KB * 1000) {
      console.log(`match page over ${GOAL_KB} kB as served: goal NOT met`);
      process.exitCode = 1;
    } else console.log(`match page <= ${GOAL_KB} kB as served: goal met`);
  }
}

// The built-in deck files (JSON inlined as object literals) anywhere in the build, by version.
const escaped = DEFAULT_DECK.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const deckFile = new RegExp(`version:\\s*[\`"'](.+?)[\`"'],\\s*name:\\s*[\`"']${escaped}`, 'g');
const assets = path.join(DIST, 'assets');
for (const name of fs.readdirSync(assets).filter((f) => f.endsWith('.js'))) {
  const file = path.join(assets, name);
  const versions = [...fs.readFileSync(file, 'utf8').matchAll(deckFile)].map((m) => m[1]);
  if (versions.length === 0) continue;
  const first = seen.has(file);
  console.log(`${name}: deck version ${versions.join(', ')}${first ? ' (initial)' : ''}`);
  if (first && versions.some((v) => v !== DEFAULT_DECK.version)) {
    console.log('an older deck version is in the initial JavaScript: goal NOT met');
    process.exitCode = 1;
  }
}
