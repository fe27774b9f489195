import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OUT_DIR, SERVER_DIR } from './targets.ts';

export interface Machine {
  date: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  command: string;
  /** Where our server was built from. */
  server: string;
  /** 1-minute load average when the run started and when it ended. */
  loadStart: number;
  loadEnd?: number;
}

export function machine(): Machine {
  return {
    date: new Date().toISOString(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    command:
      `npm run ${process.env.npm_lifecycle_event ?? path.basename(process.argv[1] ?? '')} -- ${process.argv.slice(2).join(' ')}`.trim(),
    server: path.relative(process.cwd(), SERVER_DIR),
    loadStart: os.loadavg()[0] ?? Number.NaN,
  };
}

export const load1 = (): number => os.loadavg()[0] ?? Number.NaN;

/**
 * Prints a benchmark's table and appends the run as one JSON line to
 * bench/server/out/results.jsonl (not committed; figures worth keeping go to bench/results.md).
 */
export function record(
  bench: string,
  run: Machine,
  header: string[],
  rows: (string | number)[][],
  details: unknown,
): void {
  run.loadEnd = load1();
  console.log(
    `\n${bench}: ${run.date}, ${run.cores} cores ${run.cpu}, ${run.memoryGiB} GiB, Node ${run.node}, load ${run.loadStart.toFixed(2)} -> ${run.loadEnd.toFixed(2)}`,
  );
  console.log(`command: ${run.command} (our server from ${run.server})\n`);
  const table = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_h, i) => Math.max(...table.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of table.slice(1)) console.log(line(r));
  fs.mkdirSync(OUT_DIR, { recursive: true });
  fs.appendFileSync(
    path.join(OUT_DIR, 'results.jsonl'),
    `${JSON.stringify({ bench, ...run, header, rows, details })}\n`,
  );
}
