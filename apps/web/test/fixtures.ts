import {
  applyMove,
  createState,
  DEFAULT_DECK,
  indexDeck,
  type LogEntry,
  legalMoves,
  type Move,
  type MoveName,
  parseSetupData,
  type RulesContext,
  type Seat,
  STANDARD_VARIANTS,
  type State,
  viewFor,
} from '@iron-curtain/game';

/** The default deck, standard edition: what every fixture match is played under. */
export const RULES: RulesContext = { deck: DEFAULT_DECK, variants: STANDARD_VARIANTS };

/**
 * A fixed deal in deck order. Seat 0 (US): East Germany, Poland, Hungary, West Germany, France.
 * Seat 1 (USSR): Iran, Israel, Pakistan, Japan, Vietnam. The other eight are the reserve.
 */
export function newMatch(): State {
  const cards = indexDeck(DEFAULT_DECK).strategyCards;
  const deal = { '0': cards.slice(0, 5), '1': cards.slice(5, 10), reserve: cards.slice(10) };
  return createState(
    parseSetupData({ sides: { '0': 'US', '1': 'USSR' }, deal }),
    (shuffled) => shuffled,
  );
}

/** Plays moves through the engine, each of which must be accepted; returns the log they produced. */
export function play(state: State, ...moves: [Seat, MoveName, ...unknown[]][]): LogEntry[] {
  const log: LogEntry[] = [];
  for (const [seat, move, ...args] of moves) {
    const outcome = applyMove(RULES, state, seat, move, args);
    if (!outcome.ok) throw new Error(`${seat} ${move}(${JSON.stringify(args)}): ${outcome.error}`);
    log.push(...outcome.log);
  }
  return log;
}

/** What a seat's socket receives: its view, through JSON like on the wire. */
export const wireView = (state: State, seat: Seat | null): State =>
  JSON.parse(JSON.stringify(viewFor(state, seat)));

/** A small deterministic generator (mulberry32) to pick among legal moves. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Plays legal moves picked by `pick` until `stop` holds or the game is over; returns the log. */
export function playUntil(
  state: State,
  stop: (state: State) => boolean,
  pick: (moves: Move[]) => Move = (moves) => moves[0] as Move,
): LogEntry[] {
  const log: LogEntry[] = [];
  for (let guard = 0; guard < 2000 && !state.result && !stop(state); guard++) {
    const seat = state.decision?.seat as Seat;
    const { move, args } = pick(legalMoves(RULES, state, seat));
    log.push(...play(state, [seat, move, ...args]));
  }
  return log;
}

/** A seeded random game that reaches the end of final scoring (it ends by the final count). */
export function finishedByFinalScoring(): State {
  for (let seed = 1; seed < 200; seed++) {
    const random = seeded(seed);
    const state = newMatch();
    playUntil(
      state,
      () => false,
      (moves) => moves[Math.floor(random() * moves.length)] as never,
    );
    if (state.result?.reason === 'final') return state;
  }
  throw new Error('no seed below 200 ends by final scoring');
}
