import type { Side } from '@iron-curtain/game';
import type { MatchResult, MatchStatus } from '../matches/match-store.ts';

/** A seat an account holds, with its credentials as the browser held them. */
export interface AccountSeat {
  matchID: string;
  seat: string;
  credentials: string;
  joinedAt: string;
}

/** An account's finished games with a winner on one side, and how many it won. */
export interface SideTally {
  side: Side;
  played: number;
  won: number;
}

/** A game of an account as its profile shows it: nothing of its credentials. */
export interface HeldGame {
  matchID: string;
  side: Side;
  status: MatchStatus;
  result: MatchResult | null;
  createdAt: string;
  updatedAt: string;
  /** The other seat's name, null while it is free. */
  opponent: string | null;
  /** The name of the live account holding the other seat, if any. */
  opponentAccount: string | null;
}

/** Which of an account's games: in play (waiting or playing), or finished. */
export type GamesWhich = 'current' | 'finished';

/** The live account holding a seat of a match. */
export interface SeatHolder {
  matchID: string;
  seat: string;
  username: string;
}

/** The seats each account holds ("My games" on every device where it signs in). */
export interface AccountSeatStore {
  /** Adds seats to an account; a seat it holds already is kept as it was. */
  addSeats(accountID: string, seats: readonly AccountSeat[]): Promise<void>;
  /** The account's seats, the latest joined first. */
  seatsOf(accountID: string): Promise<AccountSeat[]>;
  /** The account's results by side: its finished games with a winner, private ones included. */
  tallyOf(accountID: string): Promise<SideTally[]>;
  /**
   * The account's games that are not private, the latest updated first: `limit` of them
   * after `offset`.
   */
  gamesOf(accountID: string, which: GamesWhich, limit: number, offset: number): Promise<HeldGame[]>;
  /** The live (not deleted) accounts holding seats of these matches, the earliest joined first. */
  holdersOf(matchIDs: readonly string[]): Promise<SeatHolder[]>;
}
