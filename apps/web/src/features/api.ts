import {
  type ClaimWinRequest,
  type CreateBotMatchRequest,
  type CreateBotMatchResponse,
  createBotMatchResponseSchema,
  type DeckList,
  type DeckUploadResponse,
  deckListSchema,
  deckUploadResponseSchema,
  errorResponseSchema,
  type MatchInfo,
  matchInfoSchema,
  type RematchRequest,
  type RematchResponse,
  rematchResponseSchema,
} from '@iron-curtain/protocol';
import { z } from 'zod/mini';

export interface FieldIssue {
  path: string;
  message: string;
}

/** A request that did not succeed: the server's code and message, and each bad field if any. */
export class FeatureError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly issues: FieldIssue[] = [],
  ) {
    super(message);
    this.name = 'FeatureError';
  }
}

export const featurePaths = {
  rematch: (matchID: string) => `/api/matches/${encodeURIComponent(matchID)}/rematch`,
  claim: (matchID: string) => `/api/matches/${encodeURIComponent(matchID)}/claim`,
  record: (matchID: string) => `/api/matches/${encodeURIComponent(matchID)}/record`,
  match: (matchID: string) => `/api/matches/${encodeURIComponent(matchID)}`,
  decks: '/api/decks',
  botMatches: '/api/bot-matches',
};

async function call<S extends z.core.$ZodType>(
  schema: S,
  path: string,
  body?: unknown,
): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new FeatureError('NETWORK', '');
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = errorResponseSchema.safeParse(json);
    if (error.success) {
      const { code, message, issues } = error.data.error;
      throw new FeatureError(code, message, issues);
    }
    throw new FeatureError('HTTP', `HTTP ${response.status}`);
  }
  const parsed = z.safeParse(schema, json);
  if (!parsed.success) throw new FeatureError('BAD_RESPONSE', 'unexpected answer');
  return parsed.data;
}

export const featureApi = {
  offerRematch: (matchID: string, body: RematchRequest): Promise<RematchResponse> =>
    call(rematchResponseSchema, featurePaths.rematch(matchID), body),
  claimWin: (matchID: string, body: ClaimWinRequest): Promise<MatchInfo> =>
    call(matchInfoSchema, featurePaths.claim(matchID), body),
  /** The raw record: the replay page validates it with the engine's schema. */
  record: (matchID: string): Promise<unknown> => call(z.unknown(), featurePaths.record(matchID)),
  matchInfo: (matchID: string): Promise<MatchInfo> =>
    call(matchInfoSchema, featurePaths.match(matchID)),
  decks: (): Promise<DeckList> => call(deckListSchema, featurePaths.decks),
  uploadDeck: (file: unknown): Promise<DeckUploadResponse> =>
    call(deckUploadResponseSchema, featurePaths.decks, file),
  /** A match between two computer players, to watch. */
  botDemo: (body: CreateBotMatchRequest): Promise<CreateBotMatchResponse> =>
    call(createBotMatchResponseSchema, featurePaths.botMatches, body),
};
