import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { MatchRecord } from '@iron-curtain/game';
import type { MatchInfo } from '@iron-curtain/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, readRoot } from './deploy-files.ts';
import { freePort } from './nginx.ts';
import { exited } from './processes.ts';
import { request } from './support.ts';
import {
  everyone,
  type Match,
  openMatch,
  over,
  type Player,
  resynced,
  step,
  stopPlayers,
} from './watched-match.ts';

/**
 * Self-hosting in a real container engine: the image built by podman from the Dockerfile,
 * and docker-compose.yml run as the README tells an operator, both profiles, reached only
 * through the published ports. The images the files name come from
 * deploy/test/make-base-images.sh (local stand-ins, made once and kept in podman's storage).
 *
 * The compose tool is Debian's docker-compose 1.29 talking to podman's Docker-compatible API.
 * Two things differ from the file an operator runs with Docker, in a copy made here:
 * - `name: iron-curtain` (the project's name; a current Compose reads it, 1.29's schema
 *   refuses it) becomes `--project-name` (with this run's id added);
 * - the network's `ipam` gets `options: {driver: host-local}`, the option podman reports for
 *   it: without it, 1.29 finds the network changed at the second `up` and refuses to go on.
 * The project's network gets a subnet of this run's own (SCALE_NETWORK), so that two runs
 * never share one.
 * Podman runs health checks from systemd timers; this machine has no systemd, so the test
 * is the timer: every 2 s it asks podman to run each container's check (`podman healthcheck
 * run`), and podman records the status that compose and the test read.
 */
const run = promisify(execFile);
/**
 * The project's name: the file's own plus this run's, so that two runs on one machine (and an
 * operator's project) never share containers or the volume.
 */
const NAME = 'iron-curtain';
const PROJECT = `${NAME}-test-${process.pid}`;
const IMAGE = 'iron-curtain-online:local';
/** This run's subnet, 10.173.N.0/24 (not podman's own 10.88 and 10.89). */
const SCALE_NETWORK = `10.173.${process.pid % 250}`;
/** After SIGTERM or SIGKILL of a server, every client of every match is back within this. */
const RESYNC_BOUND_MS = 2000;

const tools = ['podman', 'docker-compose'];
const missing = tools.filter((tool) => {
  try {
    return !fs.statSync(`/usr/bin/${tool}`).isFile();
  } catch {
    return true;
  }
});

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-containers-'));
const socket = path.join(scratch, 'podman.sock');
let service: ChildProcess | undefined;
let healthTimer: NodeJS.Timeout | undefined;
let appPort = 0;
let scalePort = 0;

/** A command's stdout; its stderr in the error when it fails. */
async function sh(command: string, args: string[], timeout = 600_000): Promise<string> {
  try {
    const { stdout } = await run(command, args, {
      cwd: ROOT,
      timeout,
      maxBuffer: 64 * 1024 * 1024,
      env: {
        ...process.env,
        DOCKER_HOST: `unix://${socket}`,
        APP_PORT: String(appPort),
        SCALE_PORT: String(scalePort),
        SCALE_NETWORK,
        // The compose file's own settings: these clients move far faster than people do.
        RATE_LIMIT_PER_SECOND: '1000',
        RATE_LIMIT_BURST: '1000',
      },
    });
    return stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/** The compose file with only the two things above changed. */
function composeFile(): string {
  const compose = readRoot('docker-compose.yml');
  expect(compose.match(new RegExp(`^name: ${NAME}$`, 'gm'))).toHaveLength(1);
  expect(compose.match(/^ {4}ipam:\n/gm)).toHaveLength(1);
  const file = path.join(scratch, 'docker-compose.yml');
  fs.writeFileSync(
    file,
    compose
      .replace(new RegExp(`^name: ${NAME}\\n`, 'm'), '')
      .replace(/^ {4}ipam:\n/m, '    ipam:\n      options:\n        driver: host-local\n'),
  );
  return file;
}

let file = '';
/** `docker compose <args>`, as the README writes it, through docker-compose 1.29. */
const compose = (...args: string[]) =>
  sh('docker-compose', [
    '--project-name',
    PROJECT,
    '--project-directory',
    ROOT,
    '-f',
    file,
    ...args,
  ]);

interface Container {
  name: string;
  service: string;
  health: string;
  running: boolean;
  /** Milliseconds between two runs of its health check. */
  interval: number;
}

async function containers(): Promise<Container[]> {
  const names = (
    await sh('podman', [
      'ps',
      '-a',
      '--filter',
      `label=com.docker.compose.project=${PROJECT}`,
      '--format',
      '{{.Names}}',
    ])
  )
    .split('\n')
    .filter((n) => n !== '');
  if (names.length === 0) return [];
  const inspected = JSON.parse(await sh('podman', ['inspect', ...names])) as {
    Name: string;
    Config: { Labels: Record<string, string>; Healthcheck?: { Interval?: number } };
    State: { Running: boolean; Health?: { Status: string }; Healthcheck?: { Status: string } };
  }[];
  return inspected.map((c) => ({
    name: c.Name,
    service: c.Config.Labels['com.docker.compose.service'] as string,
    health: (c.State.Health ?? c.State.Healthcheck)?.Status ?? '',
    running: c.State.Running,
    // Nanoseconds in the engine's answer.
    interval: (c.Config.Healthcheck?.Interval ?? 30e9) / 1e6,
  }));
}

/**
 * The timer podman would have systemd run: each running container's health check, at once
 * when it is new and then at the container's interval.
 */
function startHealthTimer() {
  const lastRun = new Map<string, number>();
  let busy = false;
  healthTimer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const due = (await containers()).filter(
        (c) => c.running && Date.now() - (lastRun.get(c.name) ?? 0) >= c.interval,
      );
      await Promise.all(
        due.map((c) => {
          lastRun.set(c.name, Date.now());
          return run('podman', ['healthcheck', 'run', c.name]).catch(() => undefined);
        }),
      );
    } catch {
      // A container removed between listing and checking: the next round lists again.
    } finally {
      busy = false;
    }
  }, 1000);
}

/** Waits until exactly `services` run, each reported healthy by the engine. */
async function healthy(services: string[], ms = 180_000): Promise<Container[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const running = (await containers()).filter((c) => c.running);
    const names = running.map((c) => c.service).sort();
    if (
      JSON.stringify(names) === JSON.stringify([...services].sort()) &&
      running.every((c) => c.health === 'healthy')
    ) {
      return running;
    }
    if (Date.now() > deadline) {
      throw new Error(`not all healthy: ${JSON.stringify(running)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const containerOf = async (service: string) =>
  (await containers()).find((c) => c.service === service)?.name as string;

/** The web page and every script and stylesheet it names, as served at `url`. */
async function expectWebClient(url: string) {
  const page = await fetch(`${url}/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await page.text();
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1] as string,
  );
  expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
  for (const asset of assets) {
    const answer = await fetch(`${url}${asset}`);
    expect(answer.status, asset).toBe(200);
    expect(answer.headers.get('content-type'), asset).toMatch(
      asset.endsWith('.js') ? /javascript/ : /text\/css/,
    );
    expect((await answer.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
  }
}

/** Played to the end: every acknowledged move in the match's record, every state shown. */
async function expectWhole(url: string, match: Match) {
  const info = await request<MatchInfo>(`${url}/api/matches/${match.matchID}`, 'GET');
  expect(info.body.status).toBe('finished');
  const record = await request<MatchRecord>(`${url}/api/matches/${match.matchID}/record`, 'GET');
  expect(record.status).toBe(200);
  const { moves } = record.body;
  expect(moves).toHaveLength(match.acked.size);
  for (const [stateID, move] of match.acked) {
    expect(moves[stateID - 1]).toEqual({
      playerID: move.seat,
      move: move.move,
      args: JSON.parse(JSON.stringify(move.args)),
    });
  }
  expect(match.spectator.seen).toEqual(moves.map((_, i) => i).concat(moves.length));
  for (const p of everyone(match)) expect(p.snapshot.stateID).toBe(moves.length);
  return { info: info.body, record: record.body };
}

describe.skipIf(missing.length > 0 && process.env.CI !== 'true')(
  'docker-compose.yml in podman',
  () => {
    beforeAll(async () => {
      if (missing.length > 0) {
        throw new Error(`${missing.join(' and ')} missing: .ci/run installs them (apt-get)`);
      }
      [appPort, scalePort] = [await freePort(), await freePort()];
      file = composeFile();
      await sh(path.join(ROOT, 'deploy/test/make-base-images.sh'), [], 1_200_000);
      const started = Date.now();
      // Docker's format: podman's default (OCI) has no HEALTHCHECK.
      await sh('podman', ['build', '--format', 'docker', '-t', IMAGE, '.'], 1_200_000);
      console.log(`podman build: ${((Date.now() - started) / 1000).toFixed(0)} s`);
      service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], {
        stdio: 'ignore',
      });
      const deadline = Date.now() + 30_000;
      while (!fs.existsSync(socket)) {
        if (Date.now() > deadline) throw new Error('podman system service did not start');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Nothing of an earlier run left: containers, network, the Postgres volume.
      await compose('--profile', 'scale', 'down', '--volumes', '--remove-orphans');
      startHealthTimer();
    }, 1_800_000);

    afterEach(async (context) => {
      // What the containers said, for a failure in CI.
      if (context.task.result?.state === 'fail') {
        console.error(await compose('--profile', 'scale', 'logs', '--no-color', '--tail=40'));
      }
    });

    afterAll(async () => {
      stopPlayers();
      if (healthTimer) clearInterval(healthTimer);
      if (service && missing.length === 0) {
        await compose('--profile', 'scale', 'down', '--volumes', '--remove-orphans').catch((e) =>
          console.error(e),
        );
        service.kill('SIGTERM');
        await exited(service);
      }
      fs.rmSync(scratch, { recursive: true, force: true });
    }, 180_000);

    it('the default profile: one server and Postgres, a whole match, kept across down and up', async () => {
      await compose('up', '-d');
      await healthy(['postgres', 'app']);
      const url = `http://127.0.0.1:${appPort}`;
      expect((await request(`${url}/readyz`, 'GET')).body).toEqual({
        status: 'ready',
        store: 'postgres',
      });
      await expectWebClient(url);

      const match = await openMatch(url, 33);
      while (!over(match)) await step(match);
      const before = await expectWhole(url, match);
      stopPlayers();

      // The data lives in the postgres-data volume: down and up again keep the match.
      await compose('down');
      expect(await containers()).toEqual([]);
      await compose('up', '-d');
      await healthy(['postgres', 'app']);
      const info = await request<MatchInfo>(`${url}/api/matches/${match.matchID}`, 'GET');
      // Everything but who is connected right now.
      const lasting = ({ players, spectators: _, ...rest }: MatchInfo) => ({
        ...rest,
        players: players.map(({ connected: __, ...player }) => player),
      });
      expect(lasting(info.body)).toEqual(lasting(before.info));
      expect((await request(`${url}/api/matches/${match.matchID}/record`, 'GET')).body).toEqual(
        before.record,
      );
      await compose('down');
    }, 900_000);

    it('the scale profile: two servers, Redis and nginx; SIGTERM of one and SIGKILL of the other survived', async () => {
      await compose('--profile', 'scale', 'up', '-d', 'proxy');
      await healthy(['postgres', 'redis', 'app-1', 'app-2', 'proxy']);
      const url = `http://127.0.0.1:${scalePort}`;
      await expectWebClient(url);

      /** Open game sockets of one server, from its metrics listener inside the network. */
      const sockets = async (server: string) => {
        const text = await sh('podman', [
          'exec',
          await containerOf(server),
          'node',
          '-e',
          "fetch('http://127.0.0.1:9464/metrics').then(r => r.text()).then(t => process.stdout.write(t))",
        ]);
        return Number(/^ic_sockets (\d+)$/m.exec(text)?.[1]);
      };
      const servers = ['app-1', 'app-2'];
      const count = () => Promise.all(servers.map(sockets));

      // Matches until both servers hold one; which server holds a match follows from its sockets.
      const matches: Match[] = [];
      const holders: number[] = [];
      while (new Set(holders).size < 2) {
        if (matches.length === 20) {
          throw new Error(`twenty matches, all on one server (holders ${holders.join(', ')})`);
        }
        const countsBefore = await count();
        const match = await openMatch(url, 300 + matches.length);
        const countsAfter = await count();
        matches.push(match);
        holders.push(countsAfter.findIndex((n, i) => n - (countsBefore[i] ?? 0) === 3));
      }
      expect(holders).not.toContain(-1);
      // The first match of each server stays. Every player here comes from one address as nginx
      // sees it (podman's gateway), and nginx passes 10 sockets of an address at once: a restart
      // then moves 6 sockets at most, where a long search for both servers could leave dozens.
      const kept = [0, 1].map((server) => holders.indexOf(server));
      for (const [m, match] of matches.entries()) {
        if (!kept.includes(m)) for (const player of everyone(match)) player.client.stop();
      }
      matches.splice(0, matches.length, ...kept.map((m) => matches[m] as Match));
      holders.splice(0, holders.length, 0, 1);
      for (const match of matches) await step(match);

      for (const [i, signal] of [
        [0, 'TERM'],
        [1, 'KILL'],
      ] as const) {
        const server = servers[i] as string;
        const name = await containerOf(server);
        const held: Player[] = matches.filter((_, m) => holders[m] === i).flatMap(everyone);
        const signalled = Date.now();
        const back = resynced(held, signalled);
        await sh('podman', ['kill', '--signal', signal, name]);
        // The lobby stays up meanwhile: each request reaches the server still running.
        for (let n = 0; n < 4; n++) {
          expect((await request(`${url}/api/matches?limit=1`, 'GET')).status).toBe(200);
        }
        // Every client it held lost its connection and was synced again (by the other server):
        // how long they showed "reconnecting", from the first drop (podman's own command may
        // wait for the container's lock while a health check runs, before the signal leaves).
        await back;
        const took =
          Math.max(...held.map((p) => p.syncedAt)) - Math.min(...held.map((p) => p.droppedAt));
        // Written at once: a later step's failure still shows this one's time.
        console.log(`re-synced: SIG${signal} ${server}: ${took} ms`);
        expect(took).toBeLessThan(RESYNC_BOUND_MS);
        // SIGTERM: tini passed it on, and the server finished its work and stopped by itself.
        if (signal === 'TERM')
          expect(await sh('podman', ['logs', name])).toContain('"msg":"stopped"');
        // Back as the README's rolling restart brings it (or its restart policy already did).
        await compose('--profile', 'scale', 'up', '-d', '--no-deps', server);
        await healthy(['postgres', 'redis', 'app-1', 'app-2', 'proxy']);
        for (let m = 0; m < holders.length; m++) holders[m] = 1 - i;
        for (const match of matches) if (!over(match)) await step(match);
      }

      for (const match of matches) while (!over(match)) await step(match);
      for (const match of matches) await expectWhole(url, match);
    }, 900_000);
  },
);
