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
 * whenever a name or a seat's account changes (a seat taken; a player who signed in elsewhere,
 * which the server tells in the presence); undefined until known, or when it cannot be read
 * (the names then show as they are).
 */
export function useSeatAccounts(
  matchID: string,
  presence: Presence | null,
): SeatAccounts | undefined {
  const [accounts, setAccounts] = useState<SeatAccounts>();
  const first = presence?.players['0'].name ?? null;
  const second = presence?.players['1'].name ?? null;
  const firstAccount = presence?.players['0'].account ?? null;
  const secondAccount = presence?.players['1'].account ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a seat's new account is read again from the match's info
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
  }, [matchID, first, second, firstAccount, secondAccount]);
  return accounts;
}
