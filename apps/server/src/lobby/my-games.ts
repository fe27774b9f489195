import { opponentOf, otherSeat, type State } from '@iron-curtain/game';
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

/** What My games reads of a match: its record, state and moves. */
type MyGamesMatches = Pick<MatchStore, 'getMatch' | 'loadState' | 'readMoves'>;

import { jsonBody, parse } from './lobby-routes.ts';

/** Largest My games body: MAX_MY_GAMES seats with the longest ids and credentials fit. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * The status of one match for the seat that holds it, or why it cannot be given. The
 * credentials are checked before anything of the match is read beyond its record.
 */
async function myGameOf(
  matches: MyGamesMatches,
  held: HeldSeat,
  now: number,
): Promise<MyGame | MyGameRefused> {
  const { matchID, seat } = held;
  const match = await matches.getMatch(matchID);
  if (!match) return { matchID, seat, error: { code: 'NOT_FOUND', message: 'no such match' } };
  const mine = match.players.find((p) => p.seat === seat);
  if (!mine || !secretMatches(held.credentials, mine.credentialsHash)) {
    return {
      matchID,
      seat,
      error: { code: 'BAD_CREDENTIALS', message: 'these credentials do not hold that seat' },
    };
  }
  const other = match.players.find((p) => p.seat === otherSeat(seat));
  const [state, moves] = await Promise.all([
    matches.loadState(matchID),
    matches.readMoves(matchID),
  ]);
  const decider = (state?.G as State | undefined)?.decision?.seat;
  const last = moves.at(-1);
  const correspondence = !!match.daysPerTurn && match.status === 'playing';
  const deadline = deadlineOf(match.clock);
  return {
    matchID,
    seat,
    side: mine.side,
    status: match.status,
    opponent: { name: other?.name ?? null, side: opponentOf(mine.side) },
    turn:
      match.status !== 'playing' || decider === undefined
        ? null
        : decider === seat
          ? 'you'
          : 'opponent',
    result: match.result,
    clock: match.clock ? clockState(match.clock, now) : null,
    deadline: correspondence && deadline !== null ? new Date(deadline).toISOString() : null,
    lastMove: last
      ? {
          seat: last.seat,
          side: last.seat === seat ? mine.side : opponentOf(mine.side),
          entries: last.entries,
          at: last.at,
        }
      : null,
    deck: match.deck,
    updatedAt: match.updatedAt,
  };
}

/** POST /api/my-games: the status of every match the requester holds a seat in, one request for all. */
export function myGamesRouter(
  matches: MyGamesMatches,
  time: TimeSource,
  writeLimit: Middleware,
): Router {
  const router = new Router();
  // Up to 200 matches read per request: counted like the lobby's writes.
  router.use(writeLimit);
  router.post(apiRoutes.myGames, async (ctx) => {
    const { seats } = parse(myGamesRequestSchema, await jsonBody(ctx, MAX_BODY_BYTES));
    const now = time.now();
    ctx.body = {
      games: await Promise.all(seats.map((held) => myGameOf(matches, held, now))),
      at: new Date(now).toISOString(),
    };
  });
  return router;
}
