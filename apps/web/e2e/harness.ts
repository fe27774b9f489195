import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { bundleServer } from '../../server/scripts/bundle.ts';

export const REPO = fileURLToPath(new URL('../../..', import.meta.url));
export const ARTIFACTS = path.join(REPO, 'test-artifacts');

/** Debian's Chromium; .ci/run installs it. Playwright never downloads a browser here. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The server bundle the e2e test and the web benches run (a private copy, git-ignored). */
const SERVER_BUNDLE = path.join(ARTIFACTS, 'web-e2e-server', 'main.js');

/** Marks the build of this Vitest run, so a second e2e file neither rebuilds nor empties dist under the first. */
const BUILD_MARK = path.join(ARTIFACTS, 'web-e2e-build.mark');
const BUILD_LOCK = path.join(ARTIFACTS, 'web-e2e-build.lock');

/** Builds once per Vitest run (e2e files run in parallel workers of one parent process). */
export async function buildAll(): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const run = String(process.ppid);
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      fs.mkdirSync(BUILD_LOCK);
      break;
    } catch {
      // A lock left by a run that was killed: older than any build takes.
      const age = Date.now() - (fs.statSync(BUILD_LOCK, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age > 600_000) fs.rmSync(BUILD_LOCK, { recursive: true, force: true });
      if (Date.now() > deadline)
        throw new Error(`the e2e build lock ${BUILD_LOCK} is held too long`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    const built = fs.existsSync(BUILD_MARK) && fs.readFileSync(BUILD_MARK, 'utf8') === run;
    if (!built) {
      await buildOnce();
      fs.writeFileSync(BUILD_MARK, run);
    }
  } finally {
    fs.rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

/** Builds the web client into apps/web/dist (what the server serves) and bundles the server with its own bundler. */
async function buildOnce(): Promise<void> {
  execFileSync('npm', ['run', 'build', '-w', '@iron-curtain/web'], {
    cwd: REPO,
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'pipe',
    timeout: 240_000,
  });
  await bundleServer(SERVER_BUNDLE);
}

export interface RunningServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts the built server with the embedded store in a fresh temp folder, on a free port. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iron-curtain-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [SERVER_BUNDLE], {
    cwd: REPO,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST: path.join(REPO, 'apps/web/dist'),
      LOG_LEVEL: 'warn',
      METRICS_PORT: '0',
      // Every page of every e2e file comes from one address: lift the lobby's per-address cap.
      LOBBY_WRITES_PER_MINUTE: '100000',
      ...env,
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
    dataDir,
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

export function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium (see .ci/run)`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}
