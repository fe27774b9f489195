/**
 * Time to board of two builds, interleaved load by load (the order alternating), so a busy
 * machine disturbs both alike: each build is a web client dist and a server bundle, served side
 * by side; each round opens the match page (a held seat) and the spectator page cold (a fresh
 * browser context) on both. Build the old side from its commit (`npm run build -w
 * @iron-curtain/web`, and the server bundle: apps/server/scripts/bundle.ts) and copy both away
 * first; the server bundles must sit inside the repository (test-artifacts/) to find their
 * external modules. Rerun: `npx tsx bench/web-time-to-board-ab.ts --runs 15 --a-dist DIR
 * --a-server FILE --b-dist DIR --b-server FILE`.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../apps/web/e2e/harness.ts';
import { boardShownAt, seatedMatch, WATCH_BOARD } from './web-board.ts';

const arg = (name: string): string => {
  const at = process.argv.indexOf(name);
  const value = at > 0 ? process.argv[at + 1] : undefined;
  if (value === undefined) throw new Error(`${name} is missing`);
  return value;
};
const RUNS = process.argv.includes('--runs') ? Number(arg('--runs')) : 15;

interface Served {
  url: string;
  child: ChildProcess;
  dataDir: string;
}

async function serve(bundle: string, dist: string): Promise<Served> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iron-curtain-ab-'));
  const child = spawn(process.execPath, [path.resolve(bundle)], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST: path.resolve(dist),
      LOG_LEVEL: 'warn',
      METRICS_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /"url":"(http:\/\/[^"]+?)\/?".*"msg":"listening"/.exec(output);
      if (found?.[1]) resolve(found[1]);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => reject(new Error(`${bundle} exited with ${code}:\n${output}`)));
  });
  return { url, child, dataDir };
}

const builds = {
  A: await serve(arg('--a-server'), arg('--a-dist')),
  B: await serve(arg('--b-server'), arg('--b-dist')),
};
const browser = await launchBrowser();
try {
  const matches = { A: await seatedMatch(builds.A.url), B: await seatedMatch(builds.B.url) };
  const times = new Map<string, number[]>();
  for (let run = 0; run < RUNS; run++) {
    for (const build of run % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
      for (const page of ['match', 'watch'] as const) {
        const context = await browser.newContext();
        await context.addInitScript(
          (page === 'match' ? matches[build].holdSeat : '') + WATCH_BOARD,
        );
        const tab = await context.newPage();
        await tab.goto(`${builds[build].url}/${page}/${matches[build].matchID}`);
        const key = `${build}, ${page === 'match' ? 'match page' : 'spectator page'}, cold`;
        times.set(key, [...(times.get(key) ?? []), await boardShownAt(tab)]);
        await context.close();
      }
    }
  }
  const at = (values: number[], q: number) =>
    [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
  console.log('| build, page | runs | median | p90 |');
  console.log('|---|---|---|---|');
  for (const [key, values] of [...times].sort()) {
    console.log(
      `| ${key} | ${values.length} | ${at(values, 0.5)?.toFixed(0)} ms | ${at(values, 0.9)?.toFixed(0)} ms |`,
    );
  }
} finally {
  await browser.close();
  for (const served of Object.values(builds)) {
    served.child.removeAllListeners('exit');
    if (served.child.exitCode === null) {
      const exited = new Promise((resolve) => served.child.once('exit', resolve));
      served.child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(served.dataDir, { recursive: true, force: true });
  }
}
