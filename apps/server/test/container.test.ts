import { type ChildProcess, execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import dns from 'node:dns';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import type { MatchRecord } from '@iron-curtain/game';
import type { MatchInfo } from '@iron-curtain/protocol';
import { chromium } from 'playwright-core';
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
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
 *
 * The https profile gets its certificate from Pebble (an ACME server by Let's Encrypt's
 * authors, Debian's package in a stand-in image of its own) instead of Let's Encrypt, through
 * the ACME protocol and a real validation (http-01 or tls-alpn-01, as Caddy chooses; never
 * PEBBLE_VA_ALWAYS_VALID). What the test adds for that is in a second compose file of its own
 * (`httpsOverride`), never in the operator's: the Pebble service (its API's certificate made
 * here with openssl), and for Caddy the trust of that certificate (SSL_CERT_FILE) and the
 * site's name as its alias on the project network, the DNS record by which Pebble finds it.
 * ACME_CA, the compose file's own setting, points Caddy at Pebble. The test's clients find
 * the name at 127.0.0.1 (a lookup of their own) and trust only the root Pebble issues from,
 * which Pebble makes anew at each start.
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
/** The site's name (SITE_ADDRESS): Pebble reaches Caddy by it, the test's clients 127.0.0.1. */
const SITE = 'play.iron-curtain.test';
const PEBBLE_IMAGE = 'localhost/iron-curtain-test/pebble:latest';
/** Pebble's ACME directory on the project network. */
const PEBBLE_DIRECTORY = 'https://pebble:14000/dir';
/** Debian's Chromium (.ci/run installs it); no tool downloads a browser here. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const tools = ['podman', 'docker-compose', 'openssl', 'chromium'];
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
let httpPort = 0;
let httpsPort = 0;
/** Where Pebble's management API (its roots) is published, on 127.0.0.1. */
let pebblePort = 0;
/** The ACME directory Caddy asks (ACME_CA): Pebble's, or one where nothing answers. */
let acmeCa = PEBBLE_DIRECTORY;
/** Pebble's configuration and its API's certificate, and the root that signed that one. */
const pebbleDir = path.join(scratch, 'pebble');

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
        HTTP_PORT: String(httpPort),
        HTTPS_PORT: String(httpsPort),
        SITE_ADDRESS: SITE,
        ACME_CA: acmeCa,
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

/**
 * The test's own additions: Pebble, and Caddy trusting Pebble's API and known on the network by
 * the site's name (both Caddy services; one runs at a time), for the https profile; the servers'
 * door opened wide for its players, who all come from one address.
 */
function httpsOverride(): string {
  const caddy = {
    environment: { SSL_CERT_FILE: '/pebble/root.pem' },
    volumes: [`${pebbleDir}:/pebble:ro`],
    networks: { default: { aliases: [SITE] } },
    depends_on: { pebble: { condition: 'service_healthy' } },
  };
  const override = {
    services: {
      pebble: {
        image: PEBBLE_IMAGE,
        profiles: ['https'],
        // No random wait before each validation, and no nonce refused on purpose (both are
        // Pebble's defaults, to exercise clients' retries; they would only slow this test).
        environment: { PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' },
        volumes: [`${pebbleDir}:/pebble:ro`],
        ports: [`127.0.0.1:${pebblePort}:15000`],
        healthcheck: {
          test: ['CMD', 'bash', '-c', 'exec 3<>/dev/tcp/127.0.0.1/14000'],
          interval: '2s',
          timeout: '5s',
          retries: 10,
        },
      },
      caddy,
      'caddy-scale': caddy,
      // Every player here comes from one address (podman's gateway, as the proxies pass it on):
      // the servers' door, which paces new sockets per address (shared through Redis), lets this
      // test's dozens in at once, as nginx.test.ts does; the door has tests of its own.
      ...Object.fromEntries(
        ['app', 'app-1', 'app-2', 'app-tls', 'app-tls-1', 'app-tls-2'].map((service) => [
          service,
          { environment: { SOCKET_CONNECTS_AT_ONCE: '100000', SOCKET_CONNECTS_HELD: '0' } },
        ]),
      ),
    },
  };
  const written = path.join(scratch, 'https.override.yml');
  // JSON is YAML.
  fs.writeFileSync(written, JSON.stringify(override, null, 2));
  return written;
}

/**
 * A root made for this run, and with it the certificate of Pebble's API (for the name
 * `pebble`), and Pebble's configuration: validations on the ports Caddy answers on.
 */
async function makePebbleFiles() {
  fs.mkdirSync(pebbleDir);
  const at = (name: string) => path.join(pebbleDir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await sh('openssl', [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    at('root-key.pem'),
    '-out',
    at('root.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=Iron Curtain test root',
  ]);
  await sh('openssl', [
    'req',
    ...ec,
    '-keyout',
    at('key.pem'),
    '-out',
    at('cert.csr'),
    '-subj',
    '/CN=pebble',
  ]);
  fs.writeFileSync(at('ext.cnf'), 'subjectAltName=DNS:pebble\nextendedKeyUsage=serverAuth\n');
  await sh('openssl', [
    'x509',
    '-req',
    '-in',
    at('cert.csr'),
    '-CA',
    at('root.pem'),
    '-CAkey',
    at('root-key.pem'),
    '-CAcreateserial',
    '-out',
    at('cert.pem'),
    '-days',
    '2',
    '-extfile',
    at('ext.cnf'),
  ]);
  fs.writeFileSync(
    at('config.json'),
    JSON.stringify({
      pebble: {
        listenAddress: '0.0.0.0:14000',
        managementListenAddress: '0.0.0.0:15000',
        certificate: '/pebble/cert.pem',
        privateKey: '/pebble/key.pem',
        httpPort: 80,
        tlsPort: 443,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  // Read by Pebble and Caddy as whatever user they run as.
  for (const name of fs.readdirSync(pebbleDir)) fs.chmodSync(at(name), 0o644);
  fs.chmodSync(pebbleDir, 0o755);
}

let file = '';
let override = '';
/** `docker compose <args>`, as the README writes it, through docker-compose 1.29. */
const compose = (...args: string[]) =>
  sh('docker-compose', [
    '--project-name',
    PROJECT,
    '--project-directory',
    ROOT,
    '-f',
    file,
    '-f',
    override,
    ...args,
  ]);
/** Every profile: what `down` and the logs of a failure take in. */
const ALL = ['--profile', 'scale', '--profile', 'https'];

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

/** What a container wrote, both streams (Caddy logs to stderr). */
async function logsOf(container: string): Promise<string> {
  const { stdout, stderr } = await run('podman', ['logs', container], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return `${stdout}${stderr}`;
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

/** The names this test's clients find at 127.0.0.1: the site (Caddy) and Pebble's API. */
const LOCAL_NAMES = new Set([SITE, 'pebble']);

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** dns.lookup, but the site and Pebble are at 127.0.0.1, where their ports are published. */
function lookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback) {
  if (!LOCAL_NAMES.has(hostname)) {
    dns.lookup(hostname, options, callback as never);
  } else if (options.all) {
    callback(null, [{ address: '127.0.0.1', family: 4 }]);
  } else {
    callback(null, '127.0.0.1', 4);
  }
}

/** How this test's clients reach the https site: trusting `ca` alone, finding names by `lookup`. */
interface Trust {
  ca: string;
  /** For the web client's sockets (engine.io passes it on to ws). */
  agent: https.Agent;
}

const plainDispatcher = getGlobalDispatcher();

/**
 * Every fetch of this test (and the lobby requests of the players) from now on trusts only
 * the root Pebble issues from, as it gives it now; the players' sockets get the same agent.
 */
async function trustPebble(): Promise<Trust> {
  setGlobalDispatcher(
    new Agent({
      connect: { ca: fs.readFileSync(path.join(pebbleDir, 'root.pem'), 'utf8'), lookup },
    }),
  );
  const answer = await fetch(`https://pebble:${pebblePort}/roots/0`);
  expect(answer.status).toBe(200);
  const ca = await answer.text();
  setGlobalDispatcher(new Agent({ connect: { ca, lookup } }));
  return { ca, agent: new https.Agent({ ca, lookup: lookup as never }) };
}

/** Back to the machine's own trust and lookups (the other tests' plain http). */
function trustNoOne() {
  setGlobalDispatcher(plainDispatcher);
}

/** Waits until Caddy serves the site with a certificate chaining to `ca` (it obtains it first). */
async function certified(url: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * The chain Caddy serves, verified against `ca` alone: the SHA-256 of each certificate's public
 * key, base64 (what Chromium's --ignore-certificate-errors-spki-list takes).
 */
function servedKeys(ca: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      { host: '127.0.0.1', port: httpsPort, servername: SITE, ca, rejectUnauthorized: true },
      () => {
        const keys: string[] = [];
        const seen = new Set<string>();
        for (
          let cert = socket.getPeerCertificate(true);
          cert?.raw && !seen.has(cert.fingerprint256);
          cert = cert.issuerCertificate
        ) {
          seen.add(cert.fingerprint256);
          const spki = new crypto.X509Certificate(cert.raw).publicKey.export({
            type: 'spki',
            format: 'der',
          });
          keys.push(crypto.createHash('sha256').update(spki).digest('base64'));
        }
        socket.end();
        resolve(keys);
      },
    );
    socket.on('error', reject);
  });
}

/**
 * Debian's Chromium at `url`, trusting the chain Caddy serves (the run's Pebble keys) and
 * finding the site at 127.0.0.1: the page is a secure context, and the web client's service
 * worker (the one "your turn" notifications use) registers and activates, which only a secure
 * context allows.
 */
async function expectServiceWorker(url: string, ca: string) {
  const keys = await servedKeys(ca);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      `--ignore-certificate-errors-spki-list=${keys.join(',')}`,
      `--host-resolver-rules=MAP ${SITE} 127.0.0.1`,
    ],
  });
  try {
    const page = await browser.newPage();
    const answer = await page.goto(`${url}/`);
    expect(answer?.status()).toBe(200);
    // In the page (this file is compiled without the DOM's types).
    expect(await page.evaluate('window.isSecureContext')).toBe(true);
    const worker = await page.evaluate(`(async () => {
      await navigator.serviceWorker.register('/sw.js');
      const registration = await navigator.serviceWorker.ready;
      return registration.active && registration.active.scriptURL;
    })()`);
    expect(worker).toBe(`${url}/sw.js`);
  } finally {
    await browser.close();
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

/**
 * Two servers behind nginx at `url` (`servers`, with `running` the services of the profile):
 * matches until each server holds one, then SIGTERM of the first and SIGKILL of the second,
 * each brought back as the README's rolling restart does; every client of theirs is back
 * within RESYNC_BOUND_MS each time, the lobby answers meanwhile, and both matches end whole.
 */
async function survivesRestarts(
  url: string,
  servers: [string, string],
  running: string[],
  profiles: string[],
  agent?: object,
) {
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
  const count = () => Promise.all(servers.map(sockets));

  // Matches until both servers hold one; which server holds a match follows from its sockets.
  const matches: Match[] = [];
  const holders: number[] = [];
  while (new Set(holders).size < 2) {
    if (matches.length === 20) {
      throw new Error(`twenty matches, all on one server (holders ${holders.join(', ')})`);
    }
    const countsBefore = await count();
    const match = await openMatch(url, 300 + matches.length, { agent });
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
    if (signal === 'TERM') expect(await sh('podman', ['logs', name])).toContain('"msg":"stopped"');
    // Back as the README's rolling restart brings it (or its restart policy already did).
    await compose(...profiles, 'up', '-d', '--no-deps', server);
    await healthy(running);
    for (let m = 0; m < holders.length; m++) holders[m] = 1 - i;
    for (const match of matches) if (!over(match)) await step(match);
  }

  for (const match of matches) while (!over(match)) await step(match);
  for (const match of matches) await expectWhole(url, match);
}

describe.skipIf(missing.length > 0 && process.env.CI !== 'true')(
  'docker-compose.yml in podman',
  () => {
    beforeAll(async () => {
      if (missing.length > 0) {
        throw new Error(`${missing.join(' and ')} missing: .ci/run installs them (apt-get)`);
      }
      [appPort, scalePort, httpPort, httpsPort, pebblePort] = [
        await freePort(),
        await freePort(),
        await freePort(),
        await freePort(),
        await freePort(),
      ];
      file = composeFile();
      await makePebbleFiles();
      override = httpsOverride();
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
      // Nothing of an earlier run left: containers, network, the volumes.
      await compose(...ALL, 'down', '--volumes', '--remove-orphans');
      startHealthTimer();
    }, 1_800_000);

    afterEach(async (context) => {
      // What the containers said, for a failure in CI.
      if (context.task.result?.state === 'fail') {
        console.error(await compose(...ALL, 'logs', '--no-color', '--tail=40'));
        // The next test starts from nothing, as each does after a pass.
        stopPlayers();
        trustNoOne();
        await compose(...ALL, 'down', '--volumes', '--remove-orphans');
      }
    });

    afterAll(async () => {
      stopPlayers();
      trustNoOne();
      if (healthTimer) clearInterval(healthTimer);
      if (service && missing.length === 0) {
        await compose(...ALL, 'down', '--volumes', '--remove-orphans').catch((e) =>
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
      const running = ['postgres', 'redis', 'app-1', 'app-2', 'proxy'];
      await healthy(running);
      const url = `http://127.0.0.1:${scalePort}`;
      await expectWebClient(url);
      await survivesRestarts(url, ['app-1', 'app-2'], running, ['--profile', 'scale']);
      await compose('--profile', 'scale', 'down');
    }, 900_000);

    it('the https profile: a certificate from the ACME server, http redirected, a whole match over wss, the service worker in Chromium', async () => {
      await compose('--profile', 'https', 'up', '-d', 'caddy');
      await healthy(['postgres', 'pebble', 'app-tls', 'caddy']);
      const url = `https://${SITE}:${httpsPort}`;
      const trust = await trustPebble();
      await certified(url);
      const caddy = await containerOf('caddy');
      const log = await logsOf(caddy);
      // Obtained through the ACME protocol after a real validation of the name: Pebble came to
      // Caddy by it, on port 80 (http-01) or 443 (tls-alpn-01), whichever Caddy chose.
      const validations = log
        .split('\n')
        .filter((line) => /"msg":"served key authentication( certificate)?"/.test(line))
        .map((line) => (JSON.parse(line) as { challenge: string }).challenge);
      expect(validations.length).toBeGreaterThan(0);
      for (const challenge of validations) expect(['http-01', 'tls-alpn-01']).toContain(challenge);
      expect(log).toContain('"msg":"certificate obtained successfully"');
      // Kept in the caddy-data volume (README, "Back up and restore").
      const stored = await sh('podman', [
        'exec',
        caddy,
        'find',
        '/data/caddy/certificates',
        '-name',
        '*.crt',
      ]);
      expect(stored).toContain(`/${SITE}.crt`);

      // http: answered with a redirect to https, whatever the path; never the page.
      for (const where of ['/', '/watch/abc123', '/api/matches']) {
        const answer = await fetch(`http://${SITE}:${httpPort}${where}`, { redirect: 'manual' });
        expect(answer.status, where).toBe(308);
        expect(answer.headers.get('location'), where).toBe(`https://${SITE}${where}`);
      }
      // https: the page with HSTS and upgrade-insecure-requests (SERVED_OVER_TLS).
      const page = await fetch(`${url}/`);
      expect(page.headers.get('strict-transport-security')).toMatch(/^max-age=31536000\b/);
      expect(page.headers.get('content-security-policy')).toMatch(/\bupgrade-insecure-requests\b/);
      await expectWebClient(url);
      // The server publishes no port of its own: Caddy's two are the only way in.
      const published = JSON.parse(
        await sh('podman', ['inspect', await containerOf('app-tls')]),
      ) as { NetworkSettings: { Ports?: Record<string, unknown[] | null> } }[];
      expect(
        Object.values(published[0]?.NetworkSettings.Ports ?? {})
          .flat()
          .filter(Boolean),
      ).toEqual([]);

      const match = await openMatch(url, 49, { agent: trust.agent });
      while (!over(match)) await step(match);
      await expectWhole(url, match);
      stopPlayers();

      await expectServiceWorker(url, trust.ca);
      trustNoOne();
      // Pebble's next start makes another root: no certificate of this one may stay.
      await compose(...ALL, 'down', '--volumes');
    }, 900_000);

    it('the https profile with scale: Caddy, nginx and two servers; SIGTERM of one and SIGKILL of the other survived', async () => {
      await compose('--profile', 'https', 'up', '-d', 'caddy-scale');
      const running = [
        'postgres',
        'redis',
        'pebble',
        'app-tls-1',
        'app-tls-2',
        'proxy-tls',
        'caddy-scale',
      ];
      await healthy(running);
      const url = `https://${SITE}:${httpsPort}`;
      const trust = await trustPebble();
      await certified(url);
      const answer = await fetch(`http://${SITE}:${httpPort}/`, { redirect: 'manual' });
      expect(answer.status).toBe(308);
      expect(answer.headers.get('location')).toBe(`https://${SITE}/`);
      const page = await fetch(`${url}/`);
      expect(page.headers.get('strict-transport-security')).toMatch(/^max-age=31536000\b/);
      await expectWebClient(url);
      await survivesRestarts(
        url,
        ['app-tls-1', 'app-tls-2'],
        running,
        ['--profile', 'https'],
        trust.agent,
      );
      stopPlayers();
      trustNoOne();
      await compose(...ALL, 'down', '--volumes');
    }, 900_000);

    it('when the ACME server cannot be reached: Caddy logs why and retries, and the site is never served over plain http', async () => {
      // Pebble's host, a port where nothing listens: as a directory that does not answer.
      acmeCa = 'https://pebble:14001/dir';
      try {
        await compose('--profile', 'https', 'up', '-d', 'caddy');
        await healthy(['postgres', 'pebble', 'app-tls', 'caddy']);
      } finally {
        acmeCa = PEBBLE_DIRECTORY;
      }
      const caddy = await containerOf('caddy');
      // What the operator sees in `docker compose logs caddy`.
      const deadline = Date.now() + 60_000;
      let log = '';
      while (!log.includes('"msg":"will retry"')) {
        if (Date.now() > deadline) throw new Error(`Caddy never said it would retry:\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
        log = await logsOf(caddy);
      }
      const failed = log
        .split('\n')
        .filter((line) => line.includes('"msg":"could not get certificate from issuer"'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(failed[0]).toMatchObject({ level: 'error', logger: 'tls.obtain', identifier: SITE });
      expect(String(failed[0]?.error)).toMatch(/pebble:14001\/dir.*connection refused/);
      expect(log).not.toContain('"msg":"certificate obtained successfully"');

      // http still only redirects to https, and https has no certificate to offer.
      setGlobalDispatcher(new Agent({ connect: { lookup } }));
      for (const where of ['/', '/watch/abc123', '/api/matches']) {
        const answer = await fetch(`http://${SITE}:${httpPort}${where}`, { redirect: 'manual' });
        expect(answer.status, where).toBe(308);
        expect(answer.headers.get('location'), where).toBe(`https://${SITE}${where}`);
        expect(await answer.text(), where).not.toContain('<html');
      }
      const handshake = await new Promise<string>((resolve) => {
        const socket = tls.connect({
          host: '127.0.0.1',
          port: httpsPort,
          servername: SITE,
          rejectUnauthorized: false,
        });
        socket.once('secureConnect', () => {
          socket.destroy();
          resolve('secured');
        });
        socket.once('error', (error) => resolve(error.message));
      });
      expect(handshake).toMatch(/alert internal error/);
      // Plain http on the https port is refused too.
      const plain = await fetch(`http://${SITE}:${httpsPort}/`);
      expect(plain.status).toBe(400);
      expect(await plain.text()).not.toContain('<html');
      trustNoOne();
      await compose(...ALL, 'down', '--volumes');
    }, 300_000);
  },
);
