/**
 * Accounts at scale (issue 47 item 8), in one process on SQLite: `--accounts` accounts and
 * `--finished` finished matches (two seats each, both held by accounts) written straight into a
 * fresh store's file, one account holding `--profileGames` of them; another account holding
 * `--myGames` matches in play, written with the server's own match store. Then the server
 * (createApp, as main.ts starts it) on that store, and three figures:
 *
 * - a passkey sign-in's verification: @simplewebauthn/server's verifyAuthenticationResponse of
 *   `--signIns` ES256 signatures, CPU time (user + system) per verification, alone in the
 *   process; beside it, the whole sign-in request's server time;
 * - GET /api/profiles/<name> of the account with `--profileGames` games, its first page and a
 *   deep one, `--requests` times each;
 * - POST /api/my-games of the signed-in account holding `--myGames` seats, `--requests` times.
 *
 * Server time: from the request's arrival at the HTTP server to its answer's last byte (the
 * client, in this process, is outside it).
 *
 *   npm run bench:server:accounts [-- --accounts 10000 --finished 100000 --profileGames 1000
 *                                     --myGames 200 --signIns 500 --requests 50]
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { DEFAULT_DECK, parseSetupData } from '@iron-curtain/game';
import { verifyAuthenticationResponse } from '@simplewebauthn/server';
import { BENCH_SETUP_DATA } from './lib/iron-curtain.ts';
import { machine, record } from './lib/report.ts';

const { createApp } = await import('../../apps/server/src/app.ts');
const { loadConfig } = await import('../../apps/server/src/ops/config.ts');
const { createLogger } = await import('../../apps/server/src/ops/logger.ts');
const { openSqliteStores } = await import('../../apps/server/src/storage/sqlite.ts');
const { SQLITE_FILE } = await import('../../apps/server/src/storage/database/sqlite-database.ts');
const { initialState } = await import('../../apps/server/src/match/engine.ts');
const { deckInfoOf } = await import('../../apps/server/src/decks/built-in-decks.ts');
const { hashSecret, newMatchID } = await import('../../apps/server/src/ops/secrets.ts');
const { nameKey, nameSkeleton } = await import('../../apps/server/src/accounts/usernames.ts');
const { sessionHash, SESSION_COOKIE } = await import(
  '../../apps/server/src/accounts/session-cookie.ts'
);
const { SoftAuthenticator } = await import('../../apps/server/test/accounts/soft-authenticator.ts');
type MatchRecord = import('../../apps/server/src/storage/index.ts').MatchRecord;

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '10000' },
    finished: { type: 'string', default: '100000' },
    profileGames: { type: 'string', default: '1000' },
    myGames: { type: 'string', default: '200' },
    signIns: { type: 'string', default: '500' },
    requests: { type: 'string', default: '50' },
  },
});
const n = (key: keyof typeof values) => {
  const value = Number(values[key]);
  if (!Number.isInteger(value) || value <= 0) {
    console.error(`--${key}: expected a positive integer, got '${values[key]}'`);
    process.exit(2);
  }
  return value;
};
const ACCOUNTS = n('accounts');
const FINISHED = n('finished');
const PROFILE_GAMES = n('profileGames');
const MY_GAMES = n('myGames');
const SIGN_INS = n('signIns');
const REQUESTS = n('requests');
if (ACCOUNTS < 3 || PROFILE_GAMES > FINISHED) {
  console.error('need at least 3 accounts, and no more profile games than finished matches');
  process.exit(2);
}

const run = machine();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-bench-accounts-'));
const PUBLIC_URL = 'http://localhost:8000';
const BUSY = 'acct-1';
const VARIANTS = parseSetupData(BENCH_SETUP_DATA).variants;
const usernameOf = (i: number) => (i === 0 ? 'Star' : i === 1 ? 'Busy' : `player${i}`);

const median = (xs: number[]) => {
  const sorted = xs.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const p95 = (xs: number[]) => {
  const sorted = xs.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? Number.NaN;
};
const ms = (x: number) => x.toFixed(2);

// The schema, by the server's own migrations; then the rows, straight into the file.
await openSqliteStores(dir).close();
const seedStarted = performance.now();
{
  const db = new DatabaseSync(path.join(dir, SQLITE_FILE));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; BEGIN');
  const at = (minute: number) => new Date(Date.UTC(2025, 0, 1) + minute * 60_000).toISOString();
  const account = db.prepare(
    `INSERT INTO accounts (account_id, username, name_key, skeleton, created_at)
     VALUES (?, ?, ?, ?, ?)`,
  );
  for (let i = 0; i < ACCOUNTS; i++) {
    const name = usernameOf(i);
    account.run(`acct-${i}`, name, nameKey(name), nameSkeleton(name), at(i));
  }
  const variants = JSON.stringify(VARIANTS);
  const deck = JSON.stringify(deckInfoOf(DEFAULT_DECK));
  const setup = JSON.stringify(BENCH_SETUP_DATA);
  const match = db.prepare(
    `INSERT INTO matches (match_id, visibility, status, variants, deck, setup_data, seed,
       invite_hash, created_at, updated_at, result)
     VALUES (?, 'public', 'finished', ?, ?, ?, 'seed', 'x', ?, ?, ?)`,
  );
  const seat = db.prepare(
    `INSERT INTO seats (match_id, seat, side, name, credentials_hash) VALUES (?, ?, ?, ?, 'x')`,
  );
  const held = db.prepare(
    `INSERT INTO account_seats (account_id, match_id, seat, credentials, joined_at)
     VALUES (?, ?, ?, 'bench-credentials-of-a-seat', ?)`,
  );
  // Accounts other than the two measured ones, spread evenly over the other matches.
  const other = (k: number) => 2 + (k % (ACCOUNTS - 2));
  for (let m = 0; m < FINISHED; m++) {
    const id = newMatchID();
    const first = m < PROFILE_GAMES ? 0 : other(m * 2);
    const second = other(m * 2 + 1);
    const winner = m % 3 === 0 ? '1' : '0';
    const result = JSON.stringify({
      winner,
      winnerSide: winner === '0' ? 'US' : 'USSR',
      reason: 'final',
    });
    match.run(id, variants, deck, setup, at(m), at(m + 30), result);
    seat.run(id, '0', 'US', usernameOf(first));
    seat.run(id, '1', 'USSR', usernameOf(second));
    held.run(`acct-${first}`, id, '0', at(m));
    held.run(`acct-${second}`, id, '1', at(m));
  }
  db.exec('COMMIT');
  db.close();
}
const stores = openSqliteStores(dir, { snapshots: true });

// The busy account's matches in play, with states, as the lobby writes them.
const CREDENTIALS = 'bench-credentials-busy-seat';
for (let m = 0; m < MY_GAMES; m++) {
  // Recent: matches in play untouched for UNFINISHED_MATCH_DAYS are the cleanup's.
  const now = new Date(Date.now() - (MY_GAMES - m) * 60_000).toISOString();
  const record: MatchRecord = {
    matchID: newMatchID(),
    visibility: 'private',
    status: 'playing',
    variants: VARIANTS,
    deck: deckInfoOf(DEFAULT_DECK),
    setupData: { ...BENCH_SETUP_DATA, variants: VARIANTS },
    seed: `bench-${m}`,
    inviteHash: hashSecret('invite'),
    players: [
      { seat: '0', side: 'US', name: 'Busy', credentialsHash: hashSecret(CREDENTIALS) },
      { seat: '1', side: 'USSR', name: 'player2', credentialsHash: hashSecret('other') },
    ],
    createdAt: now,
    updatedAt: now,
    result: null,
  };
  await stores.matches.createMatch(record, initialState(record));
  await stores.accountSeats.addSeats(BUSY, [
    { matchID: record.matchID, seat: '0', credentials: CREDENTIALS, joinedAt: now },
  ]);
}
const seededMs = performance.now() - seedStarted;

// A session of the busy account, as a sign-in makes one.
const sessionID = randomBytes(16).toString('base64url');
const nowIso = new Date().toISOString();
await stores.sessions.createSession({
  sessionHash: sessionHash(sessionID),
  accountID: BUSY,
  createdAt: nowIso,
  lastSeenAt: nowIso,
  agent: 'bench',
});

const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dir,
  LOG_LEVEL: 'silent',
  PUBLIC_URL,
  METRICS_PORT: '0',
  LOBBY_WRITES_PER_MINUTE: '1000000',
  ACCOUNT_ATTEMPTS_PER_ADDRESS_PER_MINUTE: '1000000',
});
const app = createApp(config, stores, createLogger(config));
const port = await app.listen();
const url = `http://127.0.0.1:${port}`;

/** Each request's server time (arrival to the answer's last byte), by path. */
const serverMs: number[] = [];
app.http.prependListener('request', (_req, res) => {
  const started = performance.now();
  res.on('finish', () => serverMs.push(performance.now() - started));
});
const timed = async (send: () => Promise<Response>) => {
  const before = serverMs.length;
  const response = await send();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`answered ${response.status}`);
  // The answer's last byte may be counted just after the client reads it.
  while (serverMs.length === before) await new Promise((r) => setImmediate(r));
  return serverMs.at(-1) as number;
};

// Passkey sign-in: the star account registers a passkey through the routes (as a browser does).
const authenticator = new SoftAuthenticator(PUBLIC_URL);
const post = (route: string, body: unknown, cookie?: string) =>
  fetch(`${url}${route}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: PUBLIC_URL,
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify(body),
  });
const signUpOptions = (await (
  await post('/api/account/sign-up/options', { username: 'Signer' })
).json()) as {
  options: never;
};
const signedUp = await post('/api/account/sign-up', {
  response: authenticator.register(signUpOptions.options),
});
if (signedUp.status !== 201) throw new Error(`sign-up answered ${signedUp.status}`);
const passkey = (
  await stores.accounts.passkeysOf((await stores.accounts.accountNamed('signer'))?.accountID ?? '')
)[0];
if (!passkey) throw new Error('no passkey stored');

// The verification alone: signatures made first, then verified back to back.
const signatures = Array.from({ length: SIGN_INS }, (_, i) => {
  const challenge = Buffer.from(`bench-challenge-${i}`).toString('base64url');
  return { challenge, response: authenticator.authenticate({ challenge }) };
});
const cpuBefore = process.cpuUsage();
let counter = passkey.counter;
for (const { challenge, response } of signatures) {
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: PUBLIC_URL,
    expectedRPID: 'localhost',
    credential: {
      id: passkey.credentialID,
      publicKey: Buffer.from(passkey.publicKey, 'base64url'),
      counter,
    },
    requireUserVerification: false,
  });
  if (!result.verified) throw new Error('a signature was not verified');
  counter = result.authenticationInfo.newCounter;
}
const cpu = process.cpuUsage(cpuBefore);
const verifyCpuMs = (cpu.user + cpu.system) / 1000 / SIGN_INS;

// Whole sign-in requests (options, then the signature), server time of the second.
const signInMs: number[] = [];
for (let i = 0; i < REQUESTS; i++) {
  const { options } = (await (await post('/api/account/sign-in/options', {})).json()) as {
    options: { challenge: string };
  };
  const response = authenticator.authenticate(options);
  signInMs.push(await timed(() => post('/api/account/sign-in', { response })));
}

// The profile of the account with PROFILE_GAMES games: its first page and a deep one.
const deepPage = Math.max(1, Math.floor(PROFILE_GAMES / 20));
const profile = (page: number) => () => fetch(`${url}/api/profiles/star?page=${page}`);
const check = (await (await profile(1)()).json()) as { results: { US: { played: number } } };
if (check.results.US.played !== PROFILE_GAMES) throw new Error('the profile counts otherwise');
const firstPageMs: number[] = [];
const deepPageMs: number[] = [];
for (let i = 0; i < REQUESTS; i++) {
  firstPageMs.push(await timed(profile(1)));
  deepPageMs.push(await timed(profile(deepPage)));
}

// My games of the busy account, signed in: every seat of the account, none in the body.
const cookie = `${SESSION_COOKIE}=${sessionID}`;
const mine = await (await post('/api/my-games', { seats: [] }, cookie)).json();
if ((mine as { games: unknown[] }).games.length !== MY_GAMES) {
  throw new Error(`My games answered otherwise: ${JSON.stringify(mine).slice(0, 300)}`);
}
const myGamesMs: number[] = [];
for (let i = 0; i < REQUESTS; i++) {
  myGamesMs.push(await timed(() => post('/api/my-games', { seats: [] }, cookie)));
}

await app.close();
fs.rmSync(dir, { recursive: true, force: true });

const rows = [
  ['passkey verification (CPU per signature)', ms(verifyCpuMs), '-', '<= 5'],
  ['sign-in request (server time)', ms(median(signInMs)), ms(p95(signInMs)), '-'],
  [
    `profile, ${PROFILE_GAMES} games, page 1`,
    ms(median(firstPageMs)),
    ms(p95(firstPageMs)),
    '<= 50',
  ],
  [
    `profile, ${PROFILE_GAMES} games, page ${deepPage}`,
    ms(median(deepPageMs)),
    ms(p95(deepPageMs)),
    '<= 50',
  ],
  [`My games, ${MY_GAMES} seats, signed in`, ms(median(myGamesMs)), ms(p95(myGamesMs)), '<= 50'],
];
console.log(
  `\nseeded ${ACCOUNTS} accounts, ${FINISHED} finished matches and ${MY_GAMES} in play in ${(seededMs / 1000).toFixed(1)} s`,
);
record('accounts', run, ['measure', 'median ms', 'p95 ms', 'goal ms'], rows, {
  accounts: ACCOUNTS,
  finished: FINISHED,
  profileGames: PROFILE_GAMES,
  myGames: MY_GAMES,
  signIns: SIGN_INS,
  requests: REQUESTS,
  seededMs,
});
process.exit(0);
