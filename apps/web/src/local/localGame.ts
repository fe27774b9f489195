import {
  applyMove,
  createState,
  type LogEntry,
  type MoveName,
  parseSetupData,
  type RulesContext,
  rulesOf,
  type Seat,
  type SetupData,
  type State,
} from '@iron-curtain/game';

/** What a local match shows: a new object after every accepted move. */
export interface LocalSnapshot {
  /** The full state: render only viewFor(state, seat) of it. */
  state: State;
  log: LogEntry[];
  /** Bumped on every accepted move (the engine changes the state in place). */
  version: number;
  /** Why the last move was refused, if it was. */
  error: string | null;
}

/** A uniform shuffle from the browser's random numbers. */
export function browserShuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * A match held in this page only (hot-seat, tutorial): the engine itself is the authority, no
 * server. Subscribe with useSyncExternalStore; moves the rules refuse change nothing.
 */
export class LocalMatch {
  /** The deck and variants the match was set up with. */
  readonly rules: RulesContext;
  private snapshot: LocalSnapshot;
  private listeners = new Set<() => void>();

  constructor(setupData: SetupData, shuffle: (cards: string[]) => string[] = browserShuffle) {
    const setup = parseSetupData(setupData);
    this.rules = rulesOf(setup);
    const state = createState(setup, shuffle);
    this.snapshot = { state, log: [], version: 0, error: null };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): LocalSnapshot => this.snapshot;

  /** Applies a move for a seat; returns the log entries it produced, or null when refused. */
  move = (seat: Seat, name: MoveName, args: unknown[]): LogEntry[] | null => {
    const { state, log, version } = this.snapshot;
    const outcome = applyMove(this.rules, state, seat, name, args);
    this.snapshot = outcome.ok
      ? { state, log: [...log, ...outcome.log], version: version + 1, error: null }
      : { ...this.snapshot, error: outcome.error };
    for (const listener of this.listeners) listener();
    return outcome.ok ? outcome.log : null;
  };
}
