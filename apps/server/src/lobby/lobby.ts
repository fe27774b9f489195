import { randomInt } from 'node:crypto';
import type { BotLevel } from '@iron-curtain/bots';
import {
  opponentOf,
  otherSeat,
  parseSetupData,
  type SetupData,
  type Side,
} from '@iron-curtain/game';
import {
  type CreateBotMatchResponse,
  type CreateMatchResponse,
  type createBotMatchRequestSchema,
  type createMatchRequestSchema,
  invitePath,
  type joinMatchRequestSchema,
  type leaveMatchRequestSchema,
  type MatchInfo,
  type SeatGrant,
  spectatePath,
} from '@iron-curtain/protocol';
import type { z } from 'zod';
import { type BotCredentials, botName } from '../bots/credentials.ts';
import { LobbyError } from '../edge/lobby-error.ts';
import { clockFor, clockState } from '../match/clock-record.ts';
import type { FinishMatch } from '../match/ending.ts';
import { initialState } from '../match/engine.ts';
import type { PresenceBook } from '../match/presence-book.ts';
import type { MatchWrite } from '../match/room.ts';
import {
  hashSecret,
  newCredentials,
  newInvite,
  newMatchID,
  newSeed,
  secretMatches,
} from '../ops/secrets.ts';
import { systemTime, type TimeSource } from '../ops/time.ts';
import type {
  AccountSeatStore,
  DeckInfo,
  MatchRecord,
  MatchStatus,
  MatchStore,
  SeatHolder,
} from '../storage/index.ts';
import type { DeckLibrary } from './deck-library.ts';

/** A request whose seat name is settled (see `SeatName`): the wire may leave it out. */
type Seated<R extends { name?: string }> = Omit<R, 'name'> & { name: string };

/**
 * The lobby's rules: create a match, take the free seat with the invite, leave, and describe
 * a match publicly. Credentials and the invite are returned once, to the seat they belong to;
 * the store keeps only their hashes.
 */
export class Lobby {
  constructor(
    private readonly matches: Pick<
      MatchStore,
      'createMatch' | 'claimSeat' | 'listPublicMatches' | 'getMatch'
    >,
    private readonly presence: PresenceBook,
    /** Takes a seat in the match's room, in its turn; the room tells its sockets. */
    private readonly inRoom: MatchWrite,
    /** Called after a seat is taken (computer players start, the challenges change). */
    private readonly seated: (matchID: string) => void,
    private readonly finish: FinishMatch,
    readonly library: DeckLibrary,
    private readonly bots: BotCredentials,
    /** Which seats accounts hold: their names are marked as accounts' and link to profiles. */
    private readonly accountSeats: Pick<AccountSeatStore, 'holdersOf'>,
    private readonly time: TimeSource = systemTime,
  ) {}

  decks(): Promise<DeckInfo[]> {
    return this.library.list();
  }

  /**
   * Creates a match with the requester in seat 0 (a computer player when `creatorBot` is
   * given, else the signed-in `accountID` if any) and, when asked, a computer player in seat
   * 1. A rated match needs a signed-in creator and a person as the opponent; its pool is
   * live with a clock of minutes, correspondence otherwise.
   */
  async create(
    request: Seated<z.output<typeof createMatchRequestSchema>>,
    creatorBot?: BotLevel,
    accountID?: string,
  ): Promise<CreateMatchResponse> {
    const rated = request.rated === true;
    if (rated && (creatorBot || request.opponent !== 'human')) {
      throw new LobbyError(
        400,
        'RATED_NOT_ALLOWED',
        'only a match between two people can be rated, not one against the computer',
      );
    }
    if (rated && accountID === undefined) {
      throw new LobbyError(403, 'RATED_NEEDS_ACCOUNT', 'sign in to create a rated match');
    }
    const deck = await this.library.choose(request.deckId);
    const deckFile = deck.file === undefined ? {} : { deck: deck.file };
    const side: Side =
      request.side === 'random' ? (randomInt(2) === 0 ? 'US' : 'USSR') : request.side;
    const sides = { '0': side, '1': opponentOf(side) } as const;
    const setupData: SetupData = { sides, variants: request.variants, ...deckFile };
    // Normalises the variants (defaults filled in) exactly as the game will see them.
    const setup = parseSetupData(setupData);
    const matchID = newMatchID();
    const seed = newSeed();
    const credentials = creatorBot
      ? await this.bots.of(matchID, '0', creatorBot)
      : newCredentials();
    const invite = newInvite();
    const now = new Date(this.time.now()).toISOString();
    const match: MatchRecord = {
      matchID,
      visibility: request.visibility,
      status: 'waiting',
      variants: setup.variants,
      deck: deck.info,
      setupData: { sides, variants: setup.variants, ...deckFile },
      seed,
      inviteHash: hashSecret(invite),
      players: [
        {
          seat: '0',
          side: sides['0'],
          name: request.name,
          credentialsHash: hashSecret(credentials),
          ...(accountID === undefined ? {} : { accountID }),
        },
        { seat: '1', side: sides['1'], name: null, credentialsHash: null },
      ],
      createdAt: now,
      updatedAt: now,
      result: null,
      clock: clockFor(request.clockMinutes, request.daysPerTurn),
      ...(request.daysPerTurn === undefined ? {} : { daysPerTurn: request.daysPerTurn }),
      ...(rated
        ? { rated, pool: request.clockMinutes === undefined ? 'correspondence' : 'live' }
        : {}),
    };
    await this.matches.createMatch(match, initialState(match));
    if (request.opponent !== 'human') {
      const credentials = await this.bots.of(matchID, '1', request.opponent);
      const name = botName(request.opponent);
      await this.inRoom(matchID, () =>
        this.matches.claimSeat(matchID, '1', name, hashSecret(credentials), now),
      );
      this.seated(matchID);
    }
    return {
      matchID,
      seat: '0',
      side: sides['0'],
      credentials,
      links: { invite: invitePath(matchID, invite), spectate: spectatePath(matchID) },
    };
  }

  /** A match between two computer players, public, for anyone to watch. */
  async createBotMatch(
    request: z.output<typeof createBotMatchRequestSchema>,
  ): Promise<CreateBotMatchResponse> {
    const { matchID, links } = await this.create(
      {
        name: botName(request.levels.US),
        side: 'US',
        variants: request.variants,
        visibility: 'public',
        opponent: request.levels.USSR,
      },
      request.levels.US,
    );
    return { matchID, links: { spectate: links.spectate } };
  }

  /** Takes the free seat, as the signed-in `accountID` if any; a rated match's needs one. */
  async join(
    matchID: string,
    request: Seated<z.output<typeof joinMatchRequestSchema>>,
    accountID?: string,
  ): Promise<SeatGrant> {
    const match = await this.require(matchID);
    const open = match.visibility === 'open' && request.invite === undefined;
    if (!open && !secretMatches(request.invite ?? '', match.inviteHash)) {
      throw new LobbyError(403, 'BAD_INVITE', 'this invite does not belong to this match');
    }
    const free = match.players.find((p) => p.credentialsHash === null);
    if (match.status !== 'waiting' || !free) {
      throw new LobbyError(409, 'MATCH_FULL', 'both seats of this match are taken');
    }
    if (match.rated && accountID === undefined) {
      throw new LobbyError(
        403,
        'RATED_SEAT_NEEDS_ACCOUNT',
        'this match is rated: only a signed-in player may take its seat',
      );
    }
    const credentials = newCredentials();
    const claimed = await this.inRoom(
      matchID,
      () =>
        this.matches.claimSeat(
          matchID,
          free.seat,
          request.name,
          hashSecret(credentials),
          new Date(this.time.now()).toISOString(),
          accountID ?? null,
        ),
      (taken) => taken,
    );
    if (!claimed) throw new LobbyError(409, 'MATCH_FULL', 'both seats of this match are taken');
    this.seated(matchID);
    return { matchID, seat: free.seat, side: free.side, credentials };
  }

  /** Leaving a waiting match closes it; leaving a match in play resigns it. */
  async leave(
    matchID: string,
    request: z.output<typeof leaveMatchRequestSchema>,
  ): Promise<MatchInfo> {
    const match = await this.require(matchID);
    const seat = match.players.find((p) => p.seat === request.seat);
    if (!seat || !secretMatches(request.credentials, seat.credentialsHash)) {
      throw new LobbyError(403, 'BAD_CREDENTIALS', 'these credentials do not hold that seat');
    }
    if (match.status !== 'finished') {
      const winner = otherSeat(request.seat);
      const result =
        match.status === 'playing'
          ? {
              winner,
              winnerSide: match.players[Number(winner)]?.side as Side,
              reason: 'resigned' as const,
            }
          : null;
      await this.finish(matchID, result, this.time.now());
    }
    return this.info(matchID);
  }

  async info(matchID: string): Promise<MatchInfo> {
    return this.describe(await this.require(matchID));
  }

  async list(status: MatchStatus | undefined, limit: number): Promise<MatchInfo[]> {
    const matches = await this.matches.listPublicMatches({ status, limit });
    const holders = await this.accountSeats.holdersOf(matches.map((m) => m.matchID));
    return Promise.all(matches.map((m) => this.describe(m, holders)));
  }

  /**
   * The public face of a match: no seed, no credentials, no invite. Each seat an account
   * holds names the account (`holders`: read for this match when not given).
   */
  async describe(match: MatchRecord, holders?: readonly SeatHolder[]): Promise<MatchInfo> {
    const held = holders ?? (await this.accountSeats.holdersOf([match.matchID]));
    const accountAt = (seat: string) =>
      held.find((h) => h.matchID === match.matchID && h.seat === seat)?.username ?? null;
    const computers = new Set((await this.bots.seatsOf(match)).map((b) => b.seat));
    const attendance = await this.presence.everywhere(match.matchID);
    return {
      matchID: match.matchID,
      status: match.status,
      visibility: match.visibility,
      players: match.players.map((p) => ({
        seat: p.seat,
        side: p.side,
        name: p.name,
        account: accountAt(p.seat),
        computer: computers.has(p.seat),
        connected: attendance.seats[p.seat] > 0,
      })),
      spectators: attendance.spectators,
      variants: match.variants,
      deck: match.deck,
      createdAt: match.createdAt,
      updatedAt: match.updatedAt,
      result: match.result,
      clock: match.clock ? clockState(match.clock, this.time.now()) : null,
      daysPerTurn: match.daysPerTurn ?? null,
      rematch: match.rematch ?? { offers: [], matchID: null },
      rematchOf: match.rematchOf ?? null,
      ...(match.rated
        ? {
            rated: true,
            pool: match.pool ?? null,
            unrated: match.unrated ?? null,
            ratings: match.ratings ?? null,
          }
        : {}),
    };
  }

  private async require(matchID: string): Promise<MatchRecord> {
    const match = await this.matches.getMatch(matchID);
    if (!match) throw new LobbyError(404, 'NOT_FOUND', 'no such match');
    return match;
  }
}
