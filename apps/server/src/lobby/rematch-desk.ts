import type { Seat } from '@iron-curtain/game';
import type { RematchResponse, rematchRequestSchema } from '@iron-curtain/protocol';
import type { z } from 'zod';
import type { BotCredentials } from '../bots/credentials.ts';
import { LobbyError } from '../edge/lobby-error.ts';
import { newClock } from '../match/clock-record.ts';
import { initialState } from '../match/engine.ts';
import type { MatchWrite } from '../match/room.ts';
import { hashSecret, newInvite, newMatchID, newSeed, secretMatches } from '../ops/secrets.ts';
import type { TimeSource } from '../ops/time.ts';
import type { MatchRecord, MatchStore, RematchState, SeatRecord } from '../storage/index.ts';

/**
 * The same two players again with sides swapped: each keeps its seat number and its
 * credentials (the same secret opens the new match), and plays the other side. Variants,
 * deck, clock and visibility carry over. A computer seat stays one, at its level, with
 * credentials of the new match.
 */
async function rematchOf(
  finished: MatchRecord,
  now: string,
  credentials: BotCredentials,
): Promise<MatchRecord> {
  const matchID = newMatchID();
  const bots = await credentials.seatsOf(finished);
  const swap = async (p: SeatRecord): Promise<SeatRecord> => {
    const bot = bots.find((b) => b.seat === p.seat);
    return {
      seat: p.seat,
      side: p.side === 'US' ? 'USSR' : 'US',
      name: p.name,
      credentialsHash: bot
        ? hashSecret(await credentials.of(matchID, p.seat, bot.level))
        : p.credentialsHash,
      ...(p.accountID ? { accountID: p.accountID } : {}),
    };
  };
  const players: [SeatRecord, SeatRecord] = [
    await swap(finished.players[0]),
    await swap(finished.players[1]),
  ];
  const setupData = {
    ...(finished.setupData as Record<string, unknown>),
    sides: { '0': players[0].side, '1': players[1].side },
  };
  return {
    matchID,
    visibility: finished.visibility,
    status: 'playing',
    variants: finished.variants,
    deck: finished.deck,
    setupData,
    seed: newSeed(),
    // Both seats are taken: an invite nobody holds.
    inviteHash: hashSecret(newInvite()),
    players,
    createdAt: now,
    updatedAt: now,
    result: null,
    clock: finished.clock ? newClock(finished.clock.perPlayerMs / 60_000) : null,
    ...(finished.daysPerTurn ? { daysPerTurn: finished.daysPerTurn } : {}),
    rematch: null,
    rematchOf: finished.matchID,
    // A rated match's rematch is rated too, by the same accounts.
    ...(finished.rated ? { rated: true, pool: finished.pool ?? null } : {}),
    ...(finished.unrated === 'same-account' ? { unrated: finished.unrated } : {}),
  };
}

/** Rematch offers of finished matches; the second offer creates the rematch. */
export class RematchDesk {
  constructor(
    private readonly matches: Pick<MatchStore, 'getMatch' | 'offerRematch' | 'linkRematch'>,
    /** Makes the offer in the match's room, in its turn; the room tells its sockets. */
    private readonly inRoom: MatchWrite,
    /** Called when a rematch is linked, to tell its sockets (the seats' clients follow). */
    private readonly changed: (matchID: string) => void,
    private readonly time: TimeSource,
    private readonly bots: BotCredentials,
  ) {}

  async offer(
    matchID: string,
    request: z.output<typeof rematchRequestSchema>,
  ): Promise<RematchResponse> {
    const match = await this.matches.getMatch(matchID);
    if (!match) throw new LobbyError(404, 'NOT_FOUND', 'no such match');
    const seat = match.players.find((p) => p.seat === request.seat);
    if (!seat || !secretMatches(request.credentials, seat.credentialsHash)) {
      throw new LobbyError(403, 'BAD_CREDENTIALS', 'these credentials do not hold that seat');
    }
    if (match.status !== 'finished' || match.players.some((p) => p.name === null)) {
      throw new LobbyError(409, 'NOT_FINISHED', 'a rematch follows a match both seats played');
    }
    let rematch: RematchState | undefined = match.rematch ?? undefined;
    if (!rematch?.matchID) {
      rematch = await this.inRoom(matchID, () => this.offerIn(match, request.seat));
      if (rematch.matchID) this.changed(rematch.matchID);
    }
    return {
      rematch: { offers: rematch.offers, matchID: rematch.matchID },
      seat: rematch.matchID ? this.grant(rematch.matchID, request.seat, seat.side, request) : null,
    };
  }

  /** The seat's offer, stored; once both seats agree, the rematch is created and linked. */
  private async offerIn(match: MatchRecord, seat: Seat): Promise<RematchState> {
    const { matchID } = match;
    let rematch = await this.matches.offerRematch(matchID, seat);
    if (!rematch) throw new LobbyError(409, 'NOT_FINISHED', 'the match is not over');
    // A computer player always agrees.
    const computers = (await this.bots.seatsOf(match)).map((b) => b.seat);
    const agreed = new Set([...rematch.offers, ...computers]);
    if (agreed.size === 2 && !rematch.matchID) {
      const next = await rematchOf(match, new Date(this.time.now()).toISOString(), this.bots);
      const linked = await this.matches.linkRematch(matchID, next, initialState(next));
      // Another request may have linked one first: read which.
      rematch = linked
        ? { offers: rematch.offers, matchID: next.matchID }
        : ((await this.matches.getMatch(matchID))?.rematch ?? rematch);
    }
    return rematch;
  }

  private grant(
    matchID: string,
    seat: Seat,
    formerSide: SeatRecord['side'],
    request: z.output<typeof rematchRequestSchema>,
  ) {
    return {
      matchID,
      seat,
      side: formerSide === 'US' ? ('USSR' as const) : ('US' as const),
      credentials: request.credentials,
    };
  }
}
