import {
  type CreateMatchRequest,
  type CreateMatchResponse,
  createMatchResponseSchema,
  type DeckList,
  deckListSchema,
  errorResponseSchema,
  type JoinMatchRequest,
  type LeaveMatchRequest,
  leaveMatchResponseSchema,
  type MatchInfo,
  type MatchList,
  matchInfoSchema,
  matchListSchema,
  type SeatGrant,
  seatGrantSchema,
} from '@iron-curtain/protocol';
import { z } from 'zod/mini';

/** A lobby request that did not succeed, with a message a person can read. */
export class LobbyError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'LobbyError';
  }
}

export const lobbyPaths = {
  matches: '/api/matches',
  decks: '/api/decks',
  match: (matchID: string) => `/api/matches/${encodeURIComponent(matchID)}`,
  join: (matchID: string) => `/api/matches/${encodeURIComponent(matchID)}/join`,
  leave: (matchID: string) => `/api/matches/${encodeURIComponent(matchID)}/leave`,
};

async function request<S extends z.core.$ZodType>(
  schema: S,
  path: string,
  init: { method?: 'GET' | 'POST'; body?: unknown } = {},
): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
      body: init.body === undefined ? null : JSON.stringify(init.body),
    });
  } catch {
    throw new LobbyError('NETWORK', 'The server cannot be reached. Check your connection.');
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = errorResponseSchema.safeParse(json);
    if (error.success) {
      throw new LobbyError(error.data.error.code, error.data.error.message, response.status);
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
    request(createMatchResponseSchema, lobbyPaths.matches, { method: 'POST', body }),
  joinMatch: (matchID: string, body: JoinMatchRequest): Promise<SeatGrant> =>
    request(seatGrantSchema, lobbyPaths.join(matchID), { method: 'POST', body }),
  /** Leaving a waiting match closes it; leaving a match in play resigns it. */
  leaveMatch: (matchID: string, body: LeaveMatchRequest): Promise<MatchInfo> =>
    request(leaveMatchResponseSchema, lobbyPaths.leave(matchID), { method: 'POST', body }),
  getMatch: (matchID: string): Promise<MatchInfo> =>
    request(matchInfoSchema, lobbyPaths.match(matchID)),
  listDecks: (): Promise<DeckList> => request(deckListSchema, lobbyPaths.decks),
  listMatches: (status?: 'waiting' | 'playing'): Promise<MatchList> =>
    request(
      matchListSchema,
      status ? `${lobbyPaths.matches}?status=${status}` : lobbyPaths.matches,
    ),
};
