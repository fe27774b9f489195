import {
  apiRoutes,
  type ChallengeList,
  type ClaimWinRequest,
  type CreateBotMatchRequest,
  type CreateBotMatchResponse,
  type CreateMatchRequest,
  type CreateMatchResponse,
  challengeListSchema,
  createBotMatchResponseSchema,
  createMatchResponseSchema,
  type DeckList,
  type DeckUploadResponse,
  deckListSchema,
  deckUploadResponseSchema,
  errorResponseSchema,
  type Handover,
  type HandoverRequest,
  type HandoverSeats,
  handoverSchema,
  handoverSeatsSchema,
  type JoinMatchRequest,
  type LeaveMatchRequest,
  leaveMatchResponseSchema,
  type MatchInfo,
  type MatchList,
  type MyGamesRequest,
  type MyGamesResponse,
  matchInfoSchema,
  matchListSchema,
  myGamesResponseSchema,
  type PushKey,
  type PushSubscribed,
  type PushSubscribeRequest,
  type PushUnsubscribed,
  type PushUnsubscribeRequest,
  pushKeySchema,
  pushSubscribedSchema,
  pushUnsubscribedSchema,
  type RematchRequest,
  type RematchResponse,
  rematchResponseSchema,
  type SeatGrant,
  seatGrantSchema,
} from '@iron-curtain/protocol';
import { z } from 'zod/mini';

export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * A request that did not succeed: the server's code (or the page's own: OFFLINE, NETWORK, HTTP,
 * BAD_RESPONSE), its English message for logs, the HTTP status, and each bad field if any.
 * Pages show `errorWords(t, error)`, the code's text in the reader's language.
 */
export class LobbyError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number | null = null,
    readonly issues: FieldIssue[] = [],
    /** NAME_TOO_CLOSE: the existing name the one asked for looks like. */
    readonly similarTo?: string,
  ) {
    super(message);
    this.name = 'LobbyError';
  }
}

/** A GET without a body, a POST (or `method`) with one; the answer checked against its schema. */
export async function call<S extends z.core.$ZodType>(
  schema: S,
  path: string,
  body?: unknown,
  method: 'POST' | 'DELETE' = 'POST',
): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: body === undefined ? 'GET' : method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    // Offline, the reader is told that this needs the connection; online, that the server is out of reach.
    if (navigator.onLine === false) throw new LobbyError('OFFLINE', 'The browser is offline.');
    throw new LobbyError('NETWORK', 'The server cannot be reached.');
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = errorResponseSchema.safeParse(json);
    if (error.success) {
      const { code, message, issues, similarTo } = error.data.error;
      throw new LobbyError(code, message, response.status, issues, similarTo);
    }
    throw new LobbyError('HTTP', `The server answered ${response.status}.`, response.status);
  }
  const parsed = z.safeParse(schema, json);
  if (!parsed.success) {
    throw new LobbyError(
      'BAD_RESPONSE',
      'The server sent an answer this page does not understand.',
    );
  }
  return parsed.data;
}

export const lobby = {
  createMatch: (body: CreateMatchRequest): Promise<CreateMatchResponse> =>
    call(createMatchResponseSchema, apiRoutes.matches, body),
  joinMatch: (matchID: string, body: JoinMatchRequest): Promise<SeatGrant> =>
    call(seatGrantSchema, apiRoutes.join.path(matchID), body),
  /** Leaving a waiting match closes it; leaving a match in play resigns it. */
  leaveMatch: (matchID: string, body: LeaveMatchRequest): Promise<MatchInfo> =>
    call(leaveMatchResponseSchema, apiRoutes.leave.path(matchID), body),
  getMatch: (matchID: string): Promise<MatchInfo> =>
    call(matchInfoSchema, apiRoutes.match.path(matchID)),
  listMatches: (status?: 'waiting' | 'playing'): Promise<MatchList> =>
    call(matchListSchema, status ? `${apiRoutes.matches}?status=${status}` : apiRoutes.matches),
  listDecks: (): Promise<DeckList> => call(deckListSchema, apiRoutes.decks),
  uploadDeck: (file: unknown): Promise<DeckUploadResponse> =>
    call(deckUploadResponseSchema, apiRoutes.decks, file),
  offerRematch: (matchID: string, body: RematchRequest): Promise<RematchResponse> =>
    call(rematchResponseSchema, apiRoutes.rematch.path(matchID), body),
  claimWin: (matchID: string, body: ClaimWinRequest): Promise<MatchInfo> =>
    call(matchInfoSchema, apiRoutes.claim.path(matchID), body),
  /** The raw record: the replay page validates it with the engine's schema. */
  record: (matchID: string): Promise<unknown> => call(z.unknown(), apiRoutes.record.path(matchID)),
  /** The open challenges now; OpenChallenges follows them live with apiRoutes.challengeStream. */
  listChallenges: (): Promise<ChallengeList> => call(challengeListSchema, apiRoutes.challenges),
  /** The status of every match this browser holds a seat in: a POST, the credentials in its body. */
  myGames: (body: MyGamesRequest): Promise<MyGamesResponse> =>
    call(myGamesResponseSchema, apiRoutes.myGames, body),
  /** Hands this browser's seats to another browser: a one-time code, for 10 minutes. */
  handOver: (body: HandoverRequest): Promise<Handover> =>
    call(handoverSchema, apiRoutes.handovers, body),
  /** Takes the seats a code hands over (once). */
  redeemHandover: (code: string): Promise<HandoverSeats> =>
    call(handoverSeatsSchema, apiRoutes.handoverRedeem, { code }),
  /** The server's VAPID public key, for PushManager.subscribe. */
  pushKey: (): Promise<PushKey> => call(pushKeySchema, apiRoutes.pushKey),
  /** Asks for "your turn" notifications of one seat on this browser. */
  subscribePush: (body: PushSubscribeRequest): Promise<PushSubscribed> =>
    call(pushSubscribedSchema, apiRoutes.pushSubscriptions, body),
  unsubscribePush: (body: PushUnsubscribeRequest): Promise<PushUnsubscribed> =>
    call(pushUnsubscribedSchema, apiRoutes.pushSubscriptions, body, 'DELETE'),
  /** A match between two computer players, to watch. */
  botDemo: (body: CreateBotMatchRequest): Promise<CreateBotMatchResponse> =>
    call(createBotMatchResponseSchema, apiRoutes.botMatches, body),
};
