/**
 * My games at length (issue 50 item 8): `--matches` stored matches in play of `--moves` moves
 * each, written with the server's own match store (SQLite with its snapshots, as the server
 * runs it) while the server is stopped; then POST /api/my-games naming one seat of every match
 * (200 seats by default, the most one request may name), `--requests` times per round, timed
 * from the client on the same host (the server's answer time plus a loopback round trip), with
 * the server's CPU (user + system, from /proc) per request.
 *
 * `--before <dir>`: a copy of apps/server to measure beside ours on the same data, in the same
 * run: each round starts each server in turn on the store (one at a time: SQLite has one
 * owner), warms it with `--warmup` requests, then times its requests. Figures are the medians
 * of the rounds' medians.
 *
 * The matches share one sequence of moves: random legal moves of several random games (a
 * random game ends after about 65 moves), the last `SNAPSHOT_EVERY` + 1 of them consecutive
 * moves of one game, so that the state a snapshot keeps replays into the match's state.
 *
 *   npm run bench:server:my-games [-- --matches 200 --moves 300 --rounds 5 --requests 10
 *                                    --warmup 3 --before <dir> --targets sqlite,postgres]
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_DECK, keptState, type Seat, type State, stepMove } from '@iron-curtain/game';
import { parseOptions } from './lib/args.ts';
import { bounded } from './lib/bounded.ts';
import { BENCH_SETUP_DATA, randomLegalMove } from './lib/iron-curtain.ts';
import { machine, record } from './lib/report.ts';
import { OUT_DIR, SERVER_DIR, type StartedTarget, startTarget } from './lib/targets.ts';

const { openSqliteStores } = await import('../../apps/server/src/storage/sqlite.ts');
const { openPostgresStores } = await import('../../apps/server/src/storage/postgres.ts');
const { SNAPSHOT_EVERY } = await import(
  '../../apps/server/src/storage/matches/sqlite-move-groups.ts'
);
const { initialState } = await import('../../apps/server/src/match/engine.ts');
const { playedWith } = await import('../../apps/server/src/reducer/played-with.ts');
const { deckInfoOf } = await import('../../apps/server/src/decks/built-in-decks.ts');
const { hashSecret } = await import('../../apps/server/src/ops/secrets.ts');
type Stores = import('../../apps/server/src/storage/stores.ts').Stores;
type MatchRecord = import('../../apps/server/src/storage/index.ts').MatchRecord;
type MoveRecord = import('../../apps/server/src/storage/index.ts').MoveRecord;
type StoredState = import('../../apps/server/src/storage/index.ts').StoredState;

const options = parseOptions(
  { matches: 200, moves: 300, rounds: 5, requests: 10, warmup: 3, workers: 1 },
  { before: '' },
);
const targets = options.targets.filter((t) => t === 'sqlite' || t === 'postgres');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CREDENTIALS = 'bench-my-games-credentials';

const deck = deckInfoOf(DEFAULT_DECK);
const setupData = BENCH_SETUP_DATA;
const seed = 'bench-my-games';
const match = { deck, setupData, seed };

/** One stored move: the state it produced and its record. */
interface Step {
  next: StoredState;
  move: MoveRecord;
}

/** The moves of one random game from its start, until it ends (its last move left out) or `limit`. */
function randomGame(gameSeed: string, limit: number): Step[] {
  const { game, reduce } = playedWith(match);
  let state = initialState({ ...match, seed: gameSeed });
  const steps: Step[] = [];
  while (steps.length < limit) {
    const G = state.G as State;
    const seat = G.decision?.seat as Seat;
    const pick = randomLegalMove(G, seat);
    if (!pick) throw new Error('no legal move');
    const step = stepMove(game, reduce, state as never, { seat, ...pick });
    if (!step.ok) throw new Error(`a legal move was refused: ${step.reason}`);
    // The match stays in play: a game's last move is left out.
    if (step.gameover) break;
    const next = keptState(step.full);
    steps.push({
      next,
      move: {
        stateID: next._stateID,
        seat,
        move: pick.move as MoveRecord['move'],
        args: pick.args,
        entries: step.entries,
        at: new Date().toISOString(),
      },
    });
    state = next;
  }
  return steps;
}

/**
 * `moves` moves: random games' moves one after another, renumbered, and at the end the first
 * moves of one more game (SNAPSHOT_EVERY + 1 of them at least), so that the last snapshot's
 * state replays into the last state.
 */
function sequence(moves: number): { initial: StoredState; steps: Step[] } {
  const tail = SNAPSHOT_EVERY + 1;
  const steps: Step[] = [];
  for (let g = 0; steps.length < moves - tail; g++) {
    steps.push(...randomGame(`${seed}-${g}`, moves - tail - steps.length));
  }
  let last: Step[] = [];
  for (let g = 0; last.length < moves - steps.length; g++) {
    last = randomGame(`${seed}-tail-${g}`, moves - steps.length);
  }
  steps.push(...last);
  const renumbered = steps.map(({ next, move }, i) => ({
    next: { ...next, _stateID: i + 1 },
    move: { ...move, stateID: i + 1 },
  }));
  return { initial: initialState(match), steps: renumbered };
}

const matchID = (i: number) => `benchMyGames${String(i).padStart(4, '0')}`;

/** Stores the matches, every match's next move in one turn (as a busy server's groups). */
async function load(stores: Stores, initial: StoredState, steps: Step[]): Promise<void> {
  const at = new Date().toISOString();
  const credentialsHash = hashSecret(CREDENTIALS);
  const records: MatchRecord[] = Array.from({ length: options.matches }, (_, i) => ({
    matchID: matchID(i),
    visibility: 'private',
    status: 'playing',
    variants: { aftermathCap: 3, finalScoringOrder: 'standard' },
    deck,
    setupData,
    seed,
    inviteHash: 'x',
    players: [
      { seat: '0', side: 'US', name: 'Ann', credentialsHash },
      { seat: '1', side: 'USSR', name: 'Boris', credentialsHash },
    ],
    createdAt: at,
    updatedAt: at,
    result: null,
  }));
  await Promise.all(records.map((r) => stores.matches.createMatch(r, initial)));
  let before = initial._stateID;
  for (const { next, move } of steps) {
    const written = await Promise.all(
      records.map((r) => stores.matches.commitMove(r.matchID, before, next, move, null)),
    );
    if (!written.every(Boolean)) throw new Error(`move ${move.stateID} was not stored`);
    before = next._stateID;
  }
}

const seats = () =>
  Array.from({ length: options.matches }, (_, i) => ({
    matchID: matchID(i),
    seat: i % 2 === 0 ? '0' : '1',
    credentials: CREDENTIALS,
  }));

/** One request for every match; its wall time in ms. */
async function ask(port: number, expectedLast: MoveRecord, deciding: Seat): Promise<number> {
  const body = JSON.stringify({ seats: seats() });
  const start = performance.now();
  const answer = await fetch(`http://127.0.0.1:${port}/api/my-games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const text = await answer.text();
  const ms = performance.now() - start;
  if (answer.status !== 200) throw new Error(`my games answered ${answer.status}: ${text}`);
  const { games } = JSON.parse(text) as {
    games: { seat: Seat; turn: string; lastMove: { at: string } | null }[];
  };
  if (games.length !== options.matches) throw new Error(`${games.length} games answered`);
  for (const game of games) {
    const turn = game.seat === deciding ? 'you' : 'opponent';
    if (game.lastMove?.at !== expectedLast.at || game.turn !== turn) {
      throw new Error(`a game was answered wrong: ${JSON.stringify(game).slice(0, 300)}`);
    }
  }
  return ms;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

bounded(3600, async () => {
  const run = machine();
  const { initial, steps } = sequence(options.moves);
  const last = steps.at(-1) as Step;
  const deciding = (last.next.G as State).decision?.seat as Seat;
  const servers = [
    ...options.lists.before.map((dir) => ({ name: `before (${dir})`, dir: path.resolve(dir) })),
    { name: 'ours', dir: SERVER_DIR },
  ];
  const rows: (string | number)[][] = [];
  const details: unknown[] = [];
  for (const kind of targets) {
    const dataDir = path.join(OUT_DIR, 'data', `my-games-${kind}-${process.pid}`);
    const schema = `bench_my_games_${process.pid}_${Date.now()}`;
    fs.mkdirSync(dataDir, { recursive: true });
    const loadStart = performance.now();
    const stores =
      kind === 'sqlite'
        ? openSqliteStores(dataDir, { snapshots: true })
        : await openPostgresStores(DATABASE_URL, schema);
    await load(stores, initial, steps);
    await stores.close();
    const loadSeconds = (performance.now() - loadStart) / 1000;
    const perServer = new Map(
      servers.map((s) => [s.name, { ms: [] as number[], cpu: [] as number[] }]),
    );
    let lastTarget: StartedTarget | undefined;
    try {
      for (let round = 0; round < options.rounds; round++) {
        for (const server of servers) {
          const target = await startTarget(kind, {
            cpuProf: options.cpuProf,
            dataDir,
            schema,
            serverDir: server.dir,
          });
          lastTarget = target;
          for (let w = 0; w < options.warmup; w++) await ask(target.port, last.move, deciding);
          const cpuStart = target.cpuSeconds();
          const times: number[] = [];
          for (let r = 0; r < options.requests; r++) {
            times.push(await ask(target.port, last.move, deciding));
          }
          const cpuPerRequest = (target.cpuSeconds() - cpuStart) / options.requests;
          await target.stop();
          const figures = perServer.get(server.name);
          figures?.ms.push(median(times));
          figures?.cpu.push(cpuPerRequest * 1000);
        }
      }
    } finally {
      // The last server started owns the data: disposing of it removes the data directory or schema.
      await lastTarget?.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    for (const server of servers) {
      const figures = perServer.get(server.name) as { ms: number[]; cpu: number[] };
      rows.push([
        kind,
        server.name,
        options.matches,
        options.moves,
        median(figures.ms).toFixed(1),
        `${Math.min(...figures.ms).toFixed(1)}-${Math.max(...figures.ms).toFixed(1)}`,
        median(figures.cpu).toFixed(1),
      ]);
      details.push({
        kind,
        server: server.name,
        dir: path.relative(process.cwd(), server.dir),
        loadSeconds,
        ...figures,
      });
    }
  }
  record(
    'my-games',
    run,
    [
      'target',
      'server',
      'seats',
      'moves per match',
      'ms per request (median of rounds)',
      'range of rounds',
      'server CPU ms per request',
    ],
    rows,
    details,
  );
});
