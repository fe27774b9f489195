/**
 * Where a server's time went: reads a V8 CPU profile (node --cpu-prof, written by the
 * benchmarks' --cpu-prof flag to bench/server/out/prof) and prints the functions with the
 * most self time and the most inclusive time, as shares of all samples.
 *
 *   npm run bench:server:profile -- bench/server/out/prof/<file>.cpuprofile [--top 25]
 */
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' } },
});
const file = positionals[0];
if (!file) {
  console.error('usage: profile-summary <file.cpuprofile> [--top 25]');
  process.exit(2);
}
const top = Number(values.top);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** Source maps beside bundled files (our server's dist/main.js.map), to name the original file. */
const maps = new Map<string, SourceMap | null>();
function sourceMapFor(url: string): SourceMap | null {
  if (!maps.has(url)) {
    const file = `${url.replace(/^file:\/\//, '')}.map`;
    maps.set(
      url,
      fs.existsSync(file) ? new SourceMap(JSON.parse(fs.readFileSync(file, 'utf8'))) : null,
    );
  }
  return maps.get(url) ?? null;
}

const label = (n: ProfileNode) => {
  const { functionName, url, lineNumber, columnNumber } = n.callFrame;
  let where = url ? `${shorten(url)}:${lineNumber + 1}` : '';
  const entry = (url ? sourceMapFor(url)?.findEntry(lineNumber, columnNumber) : undefined) as
    | { originalSource?: string; originalLine?: number }
    | undefined;
  if (entry?.originalSource !== undefined && entry.originalLine !== undefined) {
    where = `${shorten(entry.originalSource)}:${entry.originalLine + 1}`;
  }
  return `${functionName || '(anonymous)'} ${where}`.trim();
};
function shorten(url: string): string {
  const p = url.replace(/^file:\/\//, '');
  const nm = p.lastIndexOf('node_modules/');
  if (nm >= 0) return p.slice(nm + 'node_modules/'.length);
  return path.relative(process.cwd(), p);
}

// Sample time per node (the delta that follows a sample belongs to it).
const time = new Map<number, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i + 1] ?? 0;
  time.set(id, (time.get(id) ?? 0) + dt);
  total += dt;
});

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, t] of time) {
  const node = byId.get(id);
  if (!node) continue;
  self.set(label(node), (self.get(label(node)) ?? 0) + t);
  // Count each function once per stack, however often it recurses.
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur);
    if (!n) break;
    const l = label(n);
    if (seen.has(l)) continue;
    seen.add(l);
    inclusive.set(l, (inclusive.get(l) ?? 0) + t);
  }
}

const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title} (of ${(total / 1e6).toFixed(1)} s sampled)`);
  for (const [l, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(
      `${((100 * t) / total).toFixed(1).padStart(5)} %  ${(t / 1e3).toFixed(0).padStart(7)} ms  ${l}`,
    );
  }
};
print('self time', self);
print('inclusive time', inclusive);
