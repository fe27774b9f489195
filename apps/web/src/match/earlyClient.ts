import type { Seat } from '@iron-curtain/game';
import { parseRoute } from '../app/routes.ts';
import { GameClient } from './gameClient.ts';
import { loadSeat } from './seatStore.ts';
import { socketTransport, type Transport } from './transport.ts';

/**
 * A match page's connection opened before React mounts: the socket handshake and the first
 * sync then overlap the texts' download and the first render instead of following them.
 */
let early: { key: string; client: GameClient } | null = null;
/** A page has asked for its connection: one opened after that would be nobody's. */
let asked = false;

const keyOf = (matchID: string, seat: Seat | null, credentials: string | undefined) =>
  JSON.stringify([matchID, seat, credentials ?? null]);

/** Opens the connection the page at this address will show: a held seat's or a spectator's. */
export function connectEarly(
  pathname: string,
  hash: string,
  connect: (matchID: string) => Transport = socketTransport,
): void {
  // The page's code may arrive and render before this module's caller runs: the page then
  // opened its own connection.
  if (asked) return;
  const route = parseRoute(pathname, hash);
  if (route.page !== 'match' && route.page !== 'watch') return;
  const held = route.page === 'match' ? loadSeat(route.matchID) : null;
  if (route.page === 'match' && !held) return;
  const seat = held?.seat ?? null;
  const credentials = held?.credentials;
  const client = new GameClient(connect(route.matchID), route.matchID, seat, credentials);
  client.start();
  early = { key: keyOf(route.matchID, seat, credentials), client };
}

/**
 * The connection opened early for exactly this seat of this match; any other is closed. It is
 * handed to every render that asks until the page mounts it (`earlyClientMounted`): React may
 * throw a first render away and render again (a store that changed under a concurrent render
 * does that), and the connection must not then be left open with nobody holding it.
 */
export function takeEarlyClient(
  matchID: string,
  seat: Seat | null,
  credentials: string | undefined,
): GameClient | null {
  asked = true;
  const opened = early;
  if (!opened) return null;
  if (opened.key === keyOf(matchID, seat, credentials)) return opened.client;
  // The page shows another seat than the one opened early: that connection is nobody's.
  early = null;
  opened.client.stop();
  return null;
}

/** The page has mounted this connection: from now on it is the page's to close. */
export function earlyClientMounted(client: GameClient): void {
  if (early?.client === client) early = null;
}
