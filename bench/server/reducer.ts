/**
 * CPU per move of the match reducer, in-process: our Game as boardgame.io runs it (each move
 * and hook on immer's draft) against the Game as our server runs it (apps/server's
 * withPlainMoves: moves on a plain copy of G, hooks on the state). Each way replays the same
 * seeded random games, interleaved game by game so that a busy machine slows both alike, and
 * adds what the server does per move after the reducer: the three viewers' patches and the
 * state's JSON. Checks first that both ways reach the same states.
 *
 *   npm run bench:server:reducer [-- --games 60 --rounds 4]
 */
import { parseArgs } from 'node:util';

// Production builds of boardgame.io and immer, as the servers run (set before they load).
process.env.NODE_ENV = 'production';
const { CreateGameReducer, InitializeGame } = await import('boardgame.io/internal');
const { viewFor } = await import('@iron-curtain/game');
const { viewPatch } = await import('@iron-curtain/protocol');
const { withPlainMoves } = await import('../../apps/server/src/reducer/plain-moves.ts');
const { BENCH_SETUP_DATA, IronCurtainGame, randomLegalMove } = await import(
  './lib/iron-curtain.ts'
);
const { machine, record } = await import('./lib/report.ts');
type State = import('./lib/iron-curtain.ts').State;
type Seat = import('./lib/iron-curtain.ts').Seat;

const { values } = parseArgs({
  options: { games: { type: 'string', default: '60' }, rounds: { type: 'string', default: '4' } },
});
const GAMES = Number(values.games);
const ROUNDS = Number(values.rounds);

type Full = ReturnType<typeof InitializeGame>;
type Action = { type: 'MAKE_MOVE'; payload: { type: string; args: unknown[]; playerID: Seat } };
const start = (seed: string): Full =>
  InitializeGame({
    game: { ...IronCurtainGame, seed },
    numPlayers: 2,
    setupData: BENCH_SETUP_DATA,
  });

const ways = {
  'the Game on drafts': CreateGameReducer({ game: IronCurtainGame }),
  'as our server runs it': CreateGameReducer({ game: withPlainMoves(IronCurtainGame) }),
};
type Way = keyof typeof ways;
const names = Object.keys(ways) as Way[];

const games: { seed: string; actions: Action[] }[] = [];
for (let g = 0; g < GAMES; g++) {
  const seed = `reducer-${g}`;
  let state = start(seed);
  const actions: Action[] = [];
  while (!state.ctx.gameover) {
    const seat = (state.G as State).decision?.seat as Seat;
    const pick = randomLegalMove(state.G as State, seat);
    if (!pick) throw new Error('no legal move');
    const action: Action = {
      type: 'MAKE_MOVE',
      payload: { type: pick.move, args: pick.args, playerID: seat },
    };
    state = ways['the Game on drafts'](state, action);
    actions.push(action);
  }
  games.push({ seed, actions });
}
const moves = games.reduce((n, g) => n + g.actions.length, 0);

for (const { seed, actions } of games) {
  let a = start(seed);
  let b = a;
  for (const action of actions) {
    a = ways['the Game on drafts'](a, action);
    b = ways['as our server runs it'](b, action);
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${seed}: the ways differ`);
  }
}

/** CPU microseconds to replay one game one way. */
function replay(way: Way, g: number, withServerWork: boolean): number {
  const reduce = ways[way];
  const { seed, actions } = games[g] as (typeof games)[number];
  let state = start(seed);
  const before = process.cpuUsage();
  for (const action of actions) {
    const next = reduce(state, action);
    if (withServerWork) {
      for (const viewer of ['0', '1', null] as const) {
        viewPatch(viewFor(state.G as State, viewer), viewFor(next.G as State, viewer));
      }
      const { deltalog: _, ...stored } = next;
      JSON.stringify(stored);
    }
    state = next;
  }
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

const run = machine();
const rows: (string | number)[][] = [];
const figures: Record<string, number> = {};
for (const withServerWork of [false, true]) {
  const total: Record<Way, number> = Object.fromEntries(names.map((n) => [n, 0])) as Record<
    Way,
    number
  >;
  for (let r = 0; r < ROUNDS; r++) {
    for (let g = 0; g < games.length; g++) {
      for (const way of (g + r) % 2 === 0 ? names : [...names].reverse()) {
        total[way] += replay(way, g, withServerWork);
      }
    }
  }
  const what = withServerWork ? 'reducer + 3 patches + JSON' : 'reducer';
  for (const way of names) {
    const perMove = total[way] / (moves * ROUNDS);
    figures[`${what}: ${way}`] = perMove;
    rows.push([what, way, perMove.toFixed(1)]);
  }
}
record('reducer', run, ['per move', 'way', 'CPU us/move'], rows, {
  games: GAMES,
  rounds: ROUNDS,
  moves,
  figures,
});
console.log(`\n${moves} moves of ${GAMES} random games, each replayed ${ROUNDS} times per way`);
