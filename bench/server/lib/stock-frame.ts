import {
  CreateGameReducer,
  getFilterPlayerView,
  InitializeGame,
  ProcessGameConfig,
} from 'boardgame.io/internal';
import {
  BENCH_SETUP_DATA,
  IronCurtainGame,
  legalMovesOf,
  type Seat,
  type State,
} from './iron-curtain.ts';

export interface StockFrameSizes {
  /** The `sync` answer to seat '0': its view, the log, the match data and the unfiltered initial state. */
  sync: number;
  /** `update` frames to seat '0' after each move: its view of the whole state and the move's log. */
  first: number;
  median: number;
  max: number;
  moves: number;
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * The frames stock boardgame.io 0.50.2 sends seat '0' over one game of ours (the stock-ic
 * target): the game played through boardgame.io's own reducer with the same picks as
 * `sampleFrame`, each frame filtered the way its Master does before socket.io sends it.
 */
export function stockFrameSizes(seed = 'bench-frame'): StockFrameSizes {
  const game = ProcessGameConfig({ ...IronCurtainGame, seed });
  const filter = getFilterPlayerView(game);
  const initial = InitializeGame({ game, numPlayers: 2, setupData: BENCH_SETUP_DATA });
  const reduce = CreateGameReducer({ game });
  const matchID = 'benchFrame0001';
  const sync = filter('0', {
    type: 'sync',
    args: [matchID, { state: initial, log: [], filteredMetadata: [], initialState: initial }],
  });
  const sizes: number[] = [];
  let state = initial;
  for (let i = 0; i < 500 && !state.ctx.gameover; i++) {
    const G = state.G as State;
    const seat = G.decision?.seat as Seat | undefined;
    if (!seat) break;
    const options = legalMovesOf(G, seat);
    const pick = options[i % options.length];
    if (!pick) break;
    const before = state._stateID;
    state = reduce(state, {
      type: 'MAKE_MOVE',
      payload: { type: pick.move, args: pick.args, playerID: seat },
    });
    if (state._stateID === before)
      throw new Error(`boardgame.io refused a legal move: ${pick.move}`);
    const update = filter('0', { type: 'update', args: [matchID, state] });
    sizes.push(bytesOf(update.args));
  }
  const sorted = [...sizes].sort((a, b) => a - b);
  return {
    sync: bytesOf(sync.args),
    first: sizes[0] ?? 0,
    median: sorted[Math.floor(sorted.length / 2)] ?? 0,
    max: sorted.at(-1) ?? 0,
    moves: sizes.length,
  };
}
