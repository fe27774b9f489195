import { type HeldSeat, MAX_MY_GAMES } from '@iron-curtain/protocol';
import { lobby } from '../lobby/api.ts';
import { heldSeats, SEATS_ARRIVED, saveSeat } from '../match/seatStore.ts';
import { accountApi } from './accountApi.ts';

const asHeld = ({ matchID, seat, credentials }: HeldSeat): HeldSeat => ({
  matchID,
  seat,
  credentials,
});

/**
 * The account's seats and this browser's made one: the seats this browser holds that the
 * account lacks join it (each proven by its credentials), and the account's seats this browser
 * lacks are kept here (their sides read from My games), so My games lists them and their tables
 * open on every device where the player signs in, with no handover. Steady, it costs one read.
 */
export async function syncSeats(username: string): Promise<void> {
  const { seats: owned } = await accountApi.accountSeats();
  const held = heldSeats();
  const ownedHere = new Set(owned.map((s) => `${s.matchID}:${s.seat}`));
  const toJoin = held.filter((s) => !ownedHere.has(`${s.matchID}:${s.seat}`)).map(asHeld);
  if (toJoin.length > 0) await accountApi.joinSeats({ seats: toJoin.slice(0, MAX_MY_GAMES) });
  // This browser keeps one seat per match: a match it holds a seat of stays as it is.
  const heldMatches = new Set(held.map((s) => s.matchID));
  const missing = owned.filter((s) => !heldMatches.has(s.matchID)).slice(0, MAX_MY_GAMES);
  if (missing.length === 0) return;
  const { games } = await lobby.myGames({ seats: missing.map(asHeld) });
  for (const game of games) {
    const seat = missing.find((s) => s.matchID === game.matchID && s.seat === game.seat);
    if (!seat || 'error' in game) continue;
    saveSeat({ ...asHeld(seat), side: game.side }, { name: username });
  }
  window.dispatchEvent(new Event(SEATS_ARRIVED));
}
