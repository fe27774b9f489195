// A balance experiment against its baseline, game by game: the same seeded games (same deals,
// same bot seeds) played on the default deck and with reconstructed fields changed
// (bench/selfplay.ts --set ... --log). Pairing the games removes the luck of the deal from
// the difference, so its interval is narrower than that of two separate shares.
// Usage: npx tsx bench/balance-compare.ts <baseline.jsonl> <experiment.jsonl> [more experiments]
import { readFileSync } from 'node:fs';
import { type SelfPlayGame, wilson } from '@iron-curtain/bots';
import { UNVERSIONED_DECK, type WorkerSetup } from './selfplay-deals.ts';

interface Run {
  setup: WorkerSetup;
  usWon: Map<number, boolean>;
}

function readRun(file: string): Run {
  const [head, ...lines] = readFileSync(file, 'utf8').split('\n');
  const { setup } = JSON.parse(head ?? '{}') as { setup?: WorkerSetup };
  if (!setup?.seed) throw new Error(`${file}: the first line is not a self-play log header`);
  const usWon = new Map<number, boolean>();
  for (const line of lines) {
    if (line.trim() === '') continue;
    const game = JSON.parse(line) as SelfPlayGame;
    usWon.set(game.index, game.record.result.winnerSide === 'US');
  }
  return { setup, usWon };
}

const pct = (x: number) => (100 * x).toFixed(1);

/** The same players and seed, whatever the deck: otherwise the games are not the same games. */
const playersOf = ({ seed, a, b }: WorkerSetup) => JSON.stringify({ seed, a, b });

function main(): void {
  const [baseFile, ...files] = process.argv.slice(2);
  if (!baseFile || files.length === 0) {
    console.error(
      'usage: npx tsx bench/balance-compare.ts <baseline.jsonl> <experiment.jsonl> [...]',
    );
    process.exit(2);
  }
  const base = readRun(baseFile);
  console.log(
    '| change | games | US wins, baseline | US wins, changed | shift [95 % CI], points |',
  );
  console.log('|---|---|---|---|---|');
  for (const file of files) {
    const run = readRun(file);
    if (playersOf(run.setup) !== playersOf(base.setup))
      throw new Error(`${file}: other players or seed than ${baseFile}`);
    // Whole deals only (both sides of each), as selfplay.ts counts them.
    const indices = [...run.usWon.keys()].filter(
      (i) => run.usWon.has(i ^ 1) && base.usWon.has(i) && base.usWon.has(i ^ 1),
    );
    const n = indices.length;
    if (n === 0) {
      console.log(`| ${file} | 0 | - | - | - |`);
      continue;
    }
    const diffs = indices.map((i) => Number(run.usWon.get(i)) - Number(base.usWon.get(i)));
    const baseWins = indices.filter((i) => base.usWon.get(i)).length;
    const runWins = indices.filter((i) => run.usWon.get(i)).length;
    const mean = diffs.reduce((s, d) => s + d, 0) / n;
    const variance = diffs.reduce((s, d) => s + (d - mean) ** 2, 0) / Math.max(1, n - 1);
    const half = 1.96 * Math.sqrt(variance / n);
    const b = wilson(baseWins, n);
    const r = wilson(runWins, n);
    const version = (setup: WorkerSetup) => setup.deckVersion ?? UNVERSIONED_DECK;
    const change = [
      ...(version(run.setup) === version(base.setup) ? [] : [`deck version ${version(run.setup)}`]),
      ...(run.setup.deckChanges ?? []),
      ...(run.setup.variants ? [JSON.stringify(run.setup.variants)] : []),
    ].join('; ');
    console.log(
      `| ${change || 'none'} | ${n} | ${pct(b.share)} % [${pct(b.low)}, ${pct(b.high)}] | ${pct(r.share)} % [${pct(r.low)}, ${pct(r.high)}] | ${mean >= 0 ? '+' : ''}${pct(mean)} [${pct(mean - half)}, ${pct(mean + half)}] |`,
    );
  }
}

main();
