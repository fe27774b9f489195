import { legalMoves, type Move, type Seat } from '@iron-curtain/game';
// The web client's own connection code: a test connects exactly as a browser's page does.
import { GameClient as WebGameClient } from '../../web/src/match/gameClient.ts';
import { type ConnectOptions, socketTransport } from '../../web/src/match/transport.ts';
import { Arrivals } from './arrivals.ts';
import { createAndJoin, prng } from './support.ts';

/**
 * A match played through one public address (nginx, a container's published port) by two
 * seats and a spectator on the web client's connection code, which reconnects and re-syncs
 * by itself when a server goes away.
 */

const started: Player[] = [];

/** Loopback addresses handed out so far, for players who each connect from one of their own. */
let addresses = 0;

/** A loopback address no player had yet (127.1.0.1, 127.1.0.2, ...). */
function ownAddress(): string {
  const n = addresses++;
  return `127.1.${Math.floor(n / 250)}.${(n % 250) + 1}`;
}

/** Stops every client started since the last call. */
export function stopPlayers(): void {
  for (const p of started.splice(0)) p.client.stop();
}

/** A seat or a spectator on the web client's GameClient. */
export class Player {
  readonly client: WebGameClient;
  /** Every state id it was shown, in order, each once. */
  readonly seen: number[] = [];
  /** When it last lost its connection, and when it was last synced (Date.now()). */
  droppedAt = 0;
  syncedAt = 0;
  private readonly arrivals = new Arrivals();

  constructor(
    url: string,
    matchID: string,
    readonly seat: Seat | null,
    credentials?: string,
    options: ConnectOptions = {},
  ) {
    this.client = new WebGameClient(
      socketTransport(matchID, url, options),
      matchID,
      seat,
      credentials,
    );
    let synced = false;
    this.client.subscribe(() => {
      const snapshot = this.client.getSnapshot();
      if (snapshot.synced && !synced) this.syncedAt = Date.now();
      if (!snapshot.synced && synced) this.droppedAt = Date.now();
      synced = snapshot.synced;
      if (snapshot.view && snapshot.stateID !== this.seen.at(-1)) this.seen.push(snapshot.stateID);
      this.arrivals.notify();
    });
    started.push(this);
    this.client.start();
  }

  get snapshot() {
    return this.client.getSnapshot();
  }

  /** Resolves when `predicate` holds, checked after every change; rejects after `ms`. */
  until(predicate: () => boolean, what: string, ms = 10_000): Promise<void> {
    return this.arrivals.until(predicate, what, ms);
  }
}

export interface Match {
  matchID: string;
  seats: Record<Seat, Player>;
  spectator: Player;
  /** Moves the server acknowledged, by the state id they produced. */
  acked: Map<number, Move & { seat: Seat }>;
  random: () => number;
}

/**
 * A match created and joined through the lobby at `url`, both seats and a spectator synced.
 * With `ownAddresses`, each of them connects from a loopback address of its own, as real
 * players do (a proxy's per-address limits then count each alone); otherwise all from 127.0.0.1.
 * `agent` (an https.Agent) is what their sockets connect through.
 */
export async function openMatch(
  url: string,
  seed: number,
  { ownAddresses = false, agent }: { ownAddresses?: boolean; agent?: object } = {},
): Promise<Match> {
  const { created, joined } = await createAndJoin(url);
  const { matchID } = created;
  const from = (): ConnectOptions => ({
    ...(ownAddresses ? { localAddress: ownAddress() } : {}),
    ...(agent ? { agent } : {}),
  });
  const match: Match = {
    matchID,
    seats: {
      '0': new Player(url, matchID, '0', created.credentials, from()),
      '1': new Player(url, matchID, '1', joined.credentials, from()),
    },
    spectator: new Player(url, matchID, null, undefined, from()),
    acked: new Map(),
    random: prng(seed),
  };
  await Promise.all(everyone(match).map((p) => p.until(() => p.snapshot.synced, 'the first sync')));
  return match;
}

export const everyone = (m: Match) => [m.seats['0'], m.seats['1'], m.spectator];
export const over = (m: Match) => (m.seats['0'].snapshot.view?.result ?? null) !== null;

/** One legal move by whoever decides; every client of the match must then show its state. */
export async function step(match: Match): Promise<void> {
  const seat = match.seats['0'].snapshot.view?.decision?.seat;
  if (seat === undefined) throw new Error('nobody decides');
  const mover = match.seats[seat];
  const { rules, view, stateID } = mover.snapshot;
  if (!view || !rules) throw new Error('not synced');
  const moves = legalMoves(rules, view, seat);
  const move = moves[Math.floor(match.random() * moves.length)] as Move;
  await mover.client.makeMove(move.move, move.args);
  const refusal = mover.snapshot.refusal;
  if (refusal) throw new Error(`move refused: ${refusal.code} ${refusal.message}`);
  match.acked.set(stateID + 1, { ...move, seat });
  await Promise.all(
    everyone(match).map((p) => p.until(() => p.snapshot.stateID >= stateID + 1, 'the new state')),
  );
}

/**
 * Resolves once every one of `held` lost its connection after `since` and was synced again;
 * with the time the last of them took.
 */
export async function resynced(held: Player[], since: number, ms = 30_000): Promise<number> {
  await Promise.all(
    held.map((p) =>
      p.until(() => p.droppedAt >= since && p.syncedAt > p.droppedAt, 'its re-sync', ms),
    ),
  );
  return Math.max(...held.map((p) => p.syncedAt)) - since;
}
