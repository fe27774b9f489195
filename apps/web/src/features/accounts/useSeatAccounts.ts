import type { Seat } from '@iron-curtain/game';
import type { Presence } from '@iron-curtain/protocol';
import { useEffect, useState } from 'react';
import { lobby } from '../../lobby/api.ts';

/**
 * Who holds each seat, as the match's public info names it: an account (its name), a computer
 * player, or a guest (null).
 */
export type SeatAccounts = Record<Seat, string | { computer: true } | null>;

/**
 * The accounts at the table: read from the match's info once the seats have names, and again
 * whenever a name changes (a seat taken); undefined until known, or when it cannot be read
 * (the names then show as they are).
 */
export function useSeatAccounts(
  matchID: string,
  presence: Presence | null,
): SeatAccounts | undefined {
  const [accounts, setAccounts] = useState<SeatAccounts>();
  const first = presence?.players['0'].name ?? null;
  const second = presence?.players['1'].name ?? null;
  useEffect(() => {
    if (first === null && second === null) return;
    let current = true;
    lobby.getMatch(matchID).then(
      (info) => {
        const at = (seat: Seat) => {
          const player = info.players.find((p) => p.seat === seat);
          return player?.computer ? { computer: true as const } : (player?.account ?? null);
        };
        if (current) setAccounts({ '0': at('0'), '1': at('1') });
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [matchID, first, second]);
  return accounts;
}
