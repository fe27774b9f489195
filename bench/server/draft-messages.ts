/**
 * What a confirmed draft of cubes costs on the wire and in the store, per match, two ways over
 * the same games (issue 51 point 2): each cube a placeCube move and a finishStep when points
 * are left (the web client until the placeCubes move), against the whole draft as one
 * placeCubes move. Both ways play the same moves of the same seeded games, chosen by two bots
 * (medium by default), through boardgame.io's reducer with our Game, as the server does.
 * Counted per match:
 * - messages from the client (socket.io 'update' packets, as the client encodes them) and bytes;
 * - update frames to the two seats and one spectator, each its own view's JSON Patch, as the
 *   server sends them (lib/frame.ts's shape), and bytes;
 * - store writes: the server commits every move once (a compare-and-set of the state row and
 *   an appended move row), and the bytes it writes: the whole state (with every move on
 *   Postgres; SQLite with snapshots writes it every 16th move) and the move row (arguments
 *   and log entries).
 *
 *   npm run bench:server:draft-messages [-- --matches 20 --levels medium,medium]
 */
import { chooseDraftedMove, isStrategy, type Strategy } from '@iron-curtain/bots';
import type { LogEntry, Move } from '@iron-curtain/game';
import { viewFor } from '@iron-curtain/game';
import { viewPatch } from '@iron-curtain/protocol';
import { CreateGameReducer, InitializeGame } from 'boardgame.io/internal';
import { parseOptions } from './lib/args.ts';
import {
  BENCH_RULES,
  BENCH_SETUP_DATA,
  IronCurtainGame,
  type Seat,
  type State,
} from './lib/iron-curtain.ts';
import { machine, record } from './lib/report.ts';

const options = parseOptions({ matches: 20, workers: 1 }, { levels: 'medium,medium' });
const levels = options.lists.levels;
if (levels.length !== 2 || !levels.every(isStrategy))
  throw new Error(`--levels takes two bot levels, e.g. medium,medium (got ${levels.join(',')})`);
const [level0, level1] = levels as [Strategy, Strategy];

type Full = ReturnType<typeof InitializeGame>;
interface Sent {
  seat: Seat;
  move: Move;
}

/** The socket.io packet of an event on the game namespace, as the wire carries it. */
const packetBytes = (event: string, payload: unknown) =>
  Buffer.byteLength(`42/game,${JSON.stringify([event, payload])}`);

/** One seeded game: the moves a client sending confirmed drafts sends. */
function playGame(seed: string): Sent[] {
  const game = { ...IronCurtainGame, seed };
  const reduce = CreateGameReducer({ game });
  let full: Full = InitializeGame({ game, numPlayers: 2, setupData: BENCH_SETUP_DATA });
  const sent: Sent[] = [];
  while (!full.ctx.gameover) {
    const G = full.G as State;
    const seat = G.decision?.seat as Seat;
    const move = chooseDraftedMove(
      BENCH_RULES,
      viewFor(G, seat),
      seat,
      seat === '0' ? level0 : level1,
      {
        seed: `${seed}:${sent.length}`,
      },
    );
    sent.push({ seat, move });
    const next = reduce(full, {
      type: 'MAKE_MOVE',
      payload: { type: move.move, args: move.args, playerID: seat },
    });
    if (next._stateID === full._stateID) throw new Error(`refused: ${JSON.stringify(move)}`);
    full = next;
  }
  return sent;
}

interface Tally {
  clientMessages: number;
  clientBytes: number;
  frames: number;
  frameBytes: number;
  writes: number;
  /** The whole state, written with every move (Postgres; SQLite's snapshots only every 16th). */
  stateBytes: number;
  /** The move's row: its arguments and log entries. */
  moveBytes: number;
}

/**
 * Plays `moves` through the reducer and counts what crosses the wire and reaches the store.
 * `perCube`: a placeCubes move is sent as its cubes one by one, then finishStep while the step
 * is still open, as the web client sent a draft before.
 */
function tally(seed: string, moves: Sent[], perCube: boolean): { tally: Tally; end: State } {
  const game = { ...IronCurtainGame, seed };
  const reduce = CreateGameReducer({ game });
  let full: Full = InitializeGame({ game, numPlayers: 2, setupData: BENCH_SETUP_DATA });
  const t: Tally = {
    clientMessages: 0,
    clientBytes: 0,
    frames: 0,
    frameBytes: 0,
    writes: 0,
    stateBytes: 0,
    moveBytes: 0,
  };
  const send = (seat: Seat, move: Move) => {
    const before = full;
    const request = {
      matchID: 'benchDraft0001',
      stateID: before._stateID,
      action: { type: 'MAKE_MOVE', payload: { type: move.move, args: move.args, playerID: seat } },
    };
    t.clientMessages += 1;
    t.clientBytes += packetBytes('update', request);
    full = reduce(before, { type: 'MAKE_MOVE', payload: request.action.payload });
    if (full._stateID === before._stateID) throw new Error(`refused: ${JSON.stringify(move)}`);
    const { deltalog, ...stored } = full;
    const entries = (deltalog ?? []).flatMap(
      (e) => (e.metadata as { entries?: LogEntry[] } | undefined)?.entries ?? [],
    );
    for (const viewer of ['0', '1', null] as const) {
      t.frames += 1;
      t.frameBytes += packetBytes('update', {
        matchID: request.matchID,
        from: before._stateID,
        stateID: full._stateID,
        patch: viewPatch(viewFor(before.G as State, viewer), viewFor(full.G as State, viewer)),
        entries,
      });
    }
    t.writes += 1;
    t.stateBytes += Buffer.byteLength(JSON.stringify(stored));
    t.moveBytes +=
      Buffer.byteLength(JSON.stringify(move.args)) + Buffer.byteLength(JSON.stringify(entries));
  };
  for (const { seat, move } of moves) {
    if (!perCube || move.move !== 'placeCubes') {
      send(seat, move);
      continue;
    }
    const cubes = move.args[0] as unknown[][];
    for (const args of cubes) send(seat, { move: 'placeCube', args });
    const d = (full.G as State).decision;
    const placed =
      d?.kind === 'placeCubes' ? Object.values(d.placed).reduce((a, b) => a + b, 0) : 0;
    if (d?.kind === 'placeCubes' && d.seat === seat && placed === cubes.length)
      send(seat, { move: 'finishStep', args: [] });
  }
  return { tally: t, end: full.G as State };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const run = machine();
const ways = { 'a move per cube': [] as Tally[], 'one move per draft': [] as Tally[] };
let drafts = 0;
for (let m = 0; m < options.matches; m++) {
  const seed = `draft-bench-${m}`;
  const moves = playGame(seed);
  drafts += moves.filter((s) => s.move.move === 'placeCubes').length;
  const perCube = tally(seed, moves, true);
  const perDraft = tally(seed, moves, false);
  // Both ways must reach the same end, or the comparison compares different games.
  if (JSON.stringify(perCube.end) !== JSON.stringify(perDraft.end))
    throw new Error(`match ${seed}: the two ways ended apart`);
  ways['a move per cube'].push(perCube.tally);
  ways['one move per draft'].push(perDraft.tally);
}

const columns: (keyof Tally)[] = [
  'clientMessages',
  'clientBytes',
  'frames',
  'frameBytes',
  'writes',
  'stateBytes',
  'moveBytes',
];
record(
  'draft-messages',
  run,
  [
    'way (median per match)',
    'client messages',
    'client bytes',
    'update frames (2 seats + 1 spectator)',
    'frame bytes',
    'store writes',
    'state bytes',
    'move-row bytes',
  ],
  Object.entries(ways).map(([way, tallies]) => [
    way,
    ...columns.map((c) => median(tallies.map((t) => t[c]))),
  ]),
  { matches: options.matches, levels, drafts, ways },
);
console.log(
  `\n${options.matches} matches, ${level0} against ${level1}: ${drafts} confirmed drafts (${(drafts / options.matches).toFixed(1)} a match)`,
);
