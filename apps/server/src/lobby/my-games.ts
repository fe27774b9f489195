import { opponentOf, otherSeat } from '@iron-curtain/game';
import {
  apiRoutes,
  type HeldSeat,
  type MyGame,
  type MyGameRefused,
  myGamesRequestSchema,
} from '@iron-curtain/protocol';
import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { clockState } from '../match/clock-record.ts';
import { secretMatches } from '../ops/secrets.ts';
import type { TimeSource } from '../ops/time.ts';
import { deadlineOf, type MatchStore } from '../storage/index.ts';
import { jsonBody, parse } from './lobby-routes.ts';
import type { SignedInSeats } from './signed-in-seats.ts';

/** What My games reads of a match: its record and progress, never its state or move log. */
type MyGamesMatches = Pick<MatchStore, 'getMatchProgress'>;

/** Largest My games body: MAX_MY_GAMES seats with the longest ids and credentials fit. */
const MAX_BODY_BYTES = 64 * 1024;

type Stored = Awaited<ReturnType<MatchStore['getMatchProgress']>>;

/**
 * The seats a request names, each once, in the order first named: a seat named again with the
 * same credentials adds nothing (named with others, it is answered for each).
 */
function distinctSeats(seats: readonly HeldSeat[]): HeldSeat[] {
  const named = new Map<string, HeldSeat>();
  for (const held of seats) {
    const key = JSON.stringify([held.matchID, held.seat, held.credentials]);
    if (!named.has(key)) named.set(key, held);
  }
  return [...named.values()];
}

/**
 * The status of one match for the seat that holds it, or why it cannot be given: nothing of
 * the match is answered unless the credentials hold the seat.
 */
function myGameOf(stored: Stored, held: HeldSeat, now: number): MyGame | MyGameRefused {
  const { matchID, seat } = held;
  if (!stored) return { matchID, seat, error: { code: 'NOT_FOUND', message: 'no such match' } };
  const { match, progress } = stored;
  const mine = match.players.find((p) => p.seat === seat);
  if (!mine || !secretMatches(held.credentials, mine.credentialsHash)) {
    return {
      matchID,
      seat,
      error: { code: 'BAD_CREDENTIALS', message: 'these credentials do not hold that seat' },
    };
  }
  const other = match.players.find((p) => p.seat === otherSeat(seat));
  const { deciding, lastMove } = progress;
  const correspondence = !!match.daysPerTurn && match.status === 'playing';
  const deadline = deadlineOf(match.clock);
  return {
    matchID,
    seat,
    side: mine.side,
    status: match.status,
    opponent: { name: other?.name ?? null, side: opponentOf(mine.side) },
    turn:
      match.status !== 'playing' || deciding === null
        ? null
        : deciding === seat
          ? 'you'
          : 'opponent',
    result: match.result,
    clock: match.clock ? clockState(match.clock, now) : null,
    deadline: correspondence && deadline !== null ? new Date(deadline).toISOString() : null,
    lastMove: lastMove
      ? {
          seat: lastMove.seat,
          side: lastMove.seat === seat ? mine.side : opponentOf(mine.side),
          entries: lastMove.entries,
          at: lastMove.at,
        }
      : null,
    deck: match.deck,
    updatedAt: match.updatedAt,
  };
}

/**
 * POST /api/my-games: the status of every match the requester holds a seat in, one request for
 * all: the seats the body names, and, for a signed-in player, every seat of the account.
 */
export function myGamesRouter(
  matches: MyGamesMatches,
  accountSeats: SignedInSeats,
  time: TimeSource,
  writeLimit: Middleware,
): Router {
  const router = new Router();
  // Up to 200 matches read per request: counted like the lobby's writes.
  router.use(writeLimit);
  router.post(apiRoutes.myGames, async (ctx) => {
    const { seats } = parse(myGamesRequestSchema, await jsonBody(ctx, MAX_BODY_BYTES));
    const asked = distinctSeats([...seats, ...(await accountSeats.held(ctx))]);
    // Each match read once, however many of its seats and credentials are asked about.
    const reads = new Map<string, Promise<Stored>>();
    const read = (matchID: string) => {
      let stored = reads.get(matchID);
      if (!stored) {
        stored = matches.getMatchProgress(matchID);
        reads.set(matchID, stored);
      }
      return stored;
    };
    const stored = await Promise.all(asked.map((a) => read(a.matchID)));
    const now = time.now();
    ctx.body = {
      games: asked.map((a, i) => myGameOf(stored[i], a, now)),
      at: new Date(now).toISOString(),
    };
  });
  return router;
}
