/** A seat an account holds, with its credentials as the browser held them. */
export interface AccountSeat {
  matchID: string;
  seat: string;
  credentials: string;
  joinedAt: string;
}

/** The seats each account holds ("My games" on every device where it signs in). */
export interface AccountSeatStore {
  /** Adds seats to an account; a seat it holds already is kept as it was. */
  addSeats(accountID: string, seats: readonly AccountSeat[]): Promise<void>;
  /** The account's seats, the latest joined first. */
  seatsOf(accountID: string): Promise<AccountSeat[]>;
}
