import type { HeldSeat } from '@iron-curtain/protocol';
import type { Context } from 'koa';
import type { TimeSource } from '../ops/time.ts';
import type { AccountSeatStore } from '../storage/index.ts';

/** The account whose live session the request carries, if any (the accounts' part answers it). */
export type SignedInAccount = (ctx: Context) => Promise<string | undefined>;

/**
 * The seats of signed-in players: a seat one takes (creating a match, joining one, accepting a
 * challenge, a rematch) joins the account in the same request, and My games answers for every
 * seat the account holds, on any device where it signs in. A seat's credentials stay what
 * holds it; the account only keeps them.
 */
export class SignedInSeats {
  constructor(
    private readonly seats: Pick<AccountSeatStore, 'addSeats' | 'seatsOf'>,
    private readonly signedIn: SignedInAccount,
    private readonly time: TimeSource,
    /** Told of a seat that joined an account: its table marks it (see `seatsJoined` of the accounts). */
    private readonly joined: (matchID: string) => void,
  ) {}

  /** The account the request is signed in to, if any. */
  accountOf(ctx: Context): Promise<string | undefined> {
    return this.signedIn(ctx);
  }

  /** A seat the request was granted joins its account, when it carries a live session. */
  async taken(ctx: Context, granted: HeldSeat): Promise<void> {
    const accountID = await this.signedIn(ctx);
    if (accountID === undefined) return;
    const { matchID, seat, credentials } = granted;
    await this.seats.addSeats(accountID, [
      { matchID, seat, credentials, joinedAt: new Date(this.time.now()).toISOString() },
    ]);
    this.joined(matchID);
  }

  /** The seats the request's account holds; none when it carries no live session. */
  async held(ctx: Context): Promise<HeldSeat[]> {
    const accountID = await this.signedIn(ctx);
    if (accountID === undefined) return [];
    return (await this.seats.seatsOf(accountID)).map(({ matchID, seat, credentials }) => ({
      matchID,
      seat: seat as HeldSeat['seat'],
      credentials,
    }));
  }
}
