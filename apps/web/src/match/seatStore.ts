import { type SeatGrant, seatGrantSchema } from '@iron-curtain/protocol';
import { z } from 'zod/mini';

/** What this browser keeps per match, so a reload or a lost network resumes the same seat. */
export const storedSeatSchema = z.extend(seatGrantSchema, {
  name: z.string(),
  /** Absolute links, kept for the creator to share again while waiting. */
  links: z.optional(z.object({ invite: z.string(), spectate: z.string() })),
});
export type StoredSeat = z.infer<typeof storedSeatSchema>;

/** Told on window when seats arrived from elsewhere (the account's, on this device): My games reads again. */
export const SEATS_ARRIVED = 'iron-curtain:seats-arrived';

/** The localStorage key of a match's seat (tools that open a seat's page set it too). */
export const seatStorageKey = (matchID: string) => `iron-curtain:seat:${matchID}`;

export function loadSeat(matchID: string, storage: Storage = localStorage): StoredSeat | null {
  const raw = storage.getItem(seatStorageKey(matchID));
  if (raw === null) return null;
  try {
    const parsed = storedSeatSchema.safeParse(JSON.parse(raw));
    return parsed.success && parsed.data.matchID === matchID ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveSeat(
  grant: SeatGrant,
  extra: { name: string; links?: StoredSeat['links'] },
  storage: Storage = localStorage,
): void {
  const seat: StoredSeat = { ...grant, ...extra };
  storage.setItem(seatStorageKey(grant.matchID), JSON.stringify(seat));
}

/** Every seat this browser holds, in no particular order: what My games asks the lobby about. */
export function heldSeats(storage: Storage = localStorage): StoredSeat[] {
  const prefix = seatStorageKey('');
  const seats: StoredSeat[] = [];
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    if (!key?.startsWith(prefix)) continue;
    const seat = loadSeat(key.slice(prefix.length), storage);
    if (seat) seats.push(seat);
  }
  return seats;
}
