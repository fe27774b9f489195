/**
 * Lighthouse on the phone preset (its default: a mid-range phone, simulated slow 4G and a 4x
 * slower CPU) against the built server: the home page and a live spectator page, N runs each,
 * medians of performance, FCP, LCP, TBT and CLS. Builds nothing: run
 * `npm run build:web -w @iron-curtain/server && npm run build -w @iron-curtain/server` first.
 * `--before DIR` measures a second build beside it in the same run, runs interleaved (DIR holds
 * `server/` = a copy of apps/server/dist and `web/` = a copy of apps/web/dist); `--after DIR`
 * measures such a copy in place of the working tree's build (which an e2e run rebuilds). Each spectator
 * run watches a fresh match between two easy computer players, so every run sees the same early,
 * moving table. `--save DIR` keeps every report as JSON (diagnostics: long tasks, main-thread work).
 * Rerun: `npm run bench:web:lighthouse -- [--runs 5] [--before DIR] [--after DIR] [--save DIR]`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiRoutes, createBotMatchResponseSchema } from '@iron-curtain/protocol';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const GOAL_SCORE = 95;
const GOAL_TBT_MS = 200;

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}
const RUNS = Number(option('--runs') ?? 5);
const BEFORE = option('--before');
const AFTER = option('--after');
const SAVE = option('--save');

interface Build {
  label: string;
  serverMain: string;
  webDist: string;
}

interface Running {
  url: string;
  stop(): Promise<void>;
}

/** The built server with the embedded store in a fresh temp folder, on a free port. */
async function startServer(build: Build): Promise<Running> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iron-curtain-lighthouse-'));
  const child: ChildProcess = spawn(process.execPath, [build.serverMain], {
    cwd: REPO,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST: build.webDist,
      LOG_LEVEL: 'warn',
      METRICS_PORT: '0',
      LOBBY_WRITES_PER_MINUTE: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      // The server's JSON 'listening' line names its URL.
      const found = /"url":"(http:\/\/[^"]+?)\/?".*"msg":"listening"/.exec(output);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new match between two easy computer players: its spectator page is live while it runs. */
async function liveMatch(url: string): Promise<string> {
  const response = await fetch(`${url}${apiRoutes.botMatches}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ levels: { US: 'easy', USSR: 'easy' } }),
  });
  if (!response.ok) throw new Error(`bot match: ${response.status} ${await response.text()}`);
  return createBotMatchResponseSchema.parse(await response.json()).matchID;
}

const METRICS = ['performance', 'FCP', 'LCP', 'TBT', 'CLS'] as const;
type Metric = (typeof METRICS)[number];
type Sample = Record<Metric, number>;

async function measure(port: number, url: string, saveAs: string | undefined): Promise<Sample> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
  });
  if (!result) throw new Error(`no Lighthouse result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  if (saveAs) fs.writeFileSync(saveAs, JSON.stringify(lhr));
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: Math.round((lhr.categories.performance?.score ?? Number.NaN) * 100),
    FCP: audit('first-contentful-paint'),
    LCP: audit('largest-contentful-paint'),
    TBT: audit('total-blocking-time'),
    CLS: audit('cumulative-layout-shift'),
  };
}

/**
 * Lighthouse now and then loses a loaded machine's trace (NO_NAVSTART): such a run measured
 * nothing, so it is run again (up to twice) instead of ending the whole bench.
 */
async function measureAgain(port: number, url: string, saveAs: string | undefined) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(port, url, saveAs);
    } catch (error) {
      if (attempt === 3) throw error;
      console.error(`${(error as Error).message}: once more`);
    }
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

function format(metric: Metric, value: number): string {
  if (metric === 'performance') return value.toFixed(0);
  if (metric === 'CLS') return value.toFixed(3);
  return `${value.toFixed(0)} ms`;
}

async function main(): Promise<void> {
  const copy = (label: string, dir: string): Build => ({
    label,
    serverMain: path.resolve(dir, 'server/main.js'),
    webDist: path.resolve(dir, 'web'),
  });
  const builds: Build[] = [
    AFTER
      ? copy('after', AFTER)
      : {
          label: 'after',
          serverMain: path.join(REPO, 'apps/server/dist/main.js'),
          webDist: path.join(REPO, 'apps/web/dist'),
        },
  ];
  if (BEFORE) builds.unshift(copy('before', BEFORE));
  for (const build of builds) {
    if (!fs.existsSync(build.serverMain) || !fs.existsSync(path.join(build.webDist, 'index.html')))
      throw new Error(`${build.label}: no build at ${build.serverMain} / ${build.webDist}`);
  }
  if (SAVE) fs.mkdirSync(SAVE, { recursive: true });
  const servers = await Promise.all(builds.map(startServer));
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  const samples = new Map<string, Sample[]>();
  const loadBefore = os.loadavg();
  try {
    for (let run = 0; run < RUNS; run++) {
      // Interleaved, so the machine's load falls on every build alike.
      for (const [i, build] of builds.entries()) {
        const server = servers[i] as Running;
        const pages = {
          home: `${server.url}/`,
          spectator: `${server.url}/watch/${await liveMatch(server.url)}`,
        };
        for (const [page, url] of Object.entries(pages)) {
          const key = `${page}|${build.label}`;
          const saveAs = SAVE && path.join(SAVE, `${page}-${build.label}-${run + 1}.json`);
          const sample = await measureAgain(chrome.port, url, saveAs);
          samples.set(key, [...(samples.get(key) ?? []), sample]);
          console.error(
            `run ${run + 1} ${key}: ${METRICS.map((m) => `${m} ${format(m, sample[m])}`).join(', ')} (load ${os.loadavg()[0]?.toFixed(1)})`,
          );
        }
      }
    }
  } finally {
    chrome.kill();
    await Promise.all(servers.map((server) => server.stop()));
  }
  const loadAfter = os.loadavg();
  console.log(
    `${RUNS} runs per page and build; load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(1)).join(' ')} after; ${os.cpus().length} cores ${os.cpus()[0]?.model ?? ''}, Node ${process.version}`,
  );
  console.log(`| page | build | ${METRICS.join(' | ')} | performance range |`);
  console.log(`|---|---|${METRICS.map(() => '---').join('|')}|---|`);
  let met = true;
  for (const [key, list] of samples) {
    const [page, label] = key.split('|');
    const medians = Object.fromEntries(
      METRICS.map((m) => [m, median(list.map((s) => s[m]))]),
    ) as Sample;
    const scores = list.map((s) => s.performance);
    console.log(
      `| ${page} | ${label} | ${METRICS.map((m) => format(m, medians[m])).join(' | ')} | ${Math.min(...scores)}-${Math.max(...scores)} |`,
    );
    if (label === 'after' && (medians.performance < GOAL_SCORE || medians.TBT > GOAL_TBT_MS))
      met = false;
  }
  console.log(
    met
      ? `goal met: performance >= ${GOAL_SCORE} and TBT <= ${GOAL_TBT_MS} ms on both pages`
      : `goal NOT met: performance >= ${GOAL_SCORE} and TBT <= ${GOAL_TBT_MS} ms on both pages`,
  );
}

await main();
