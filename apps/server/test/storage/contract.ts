import fs from 'node:fs';
import { DEFAULT_DECK, type State } from '@iron-curtain/game';
import { afterAll, beforeAll, describe } from 'vitest';
import { initialState } from '../../src/match/engine.ts';
import { hashSecret, newMatchID, newSeed } from '../../src/ops/secrets.ts';
import type {
  MatchRecord,
  MatchStatus,
  MoveRecord,
  StoredState,
  Stores,
} from '../../src/storage/index.ts';
import {
  deckInfoOf,
  dropSchema,
  openTestStores,
  type StoreKind,
  tempDir,
  uniqueSchema,
} from '../support.ts';

/** The stores one contract's cases run on, opened before them and closed after them. */
export interface Backend {
  kind: StoreKind;
  /** Where the stores keep their data: a data directory (SQLite) or a schema (Postgres). */
  where: string;
  stores(): Stores;
  /** A second instance on the same data (Postgres only; SQLite has one owner, the same stores). */
  twin(): Stores;
  /**
   * Closes the stores (and the twin) and opens them again on the same data; `closed`: the case
   * closed the stores itself (SQLite's, its twin being the same).
   */
  reopen(closed?: boolean): Promise<void>;
}

/**
 * A store's contract: the same cases, run on SQLite and on Postgres, each backend on data of
 * its own.
 */
export function describeContract(name: string, cases: (backend: Backend) => void): void {
  describe.each(['sqlite', 'postgres'] as StoreKind[])(`${name} on %s`, (kind) => {
    const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
    let stores: Stores | undefined;
    let twin: Stores | undefined;
    const open = async () => {
      stores = await openTestStores(kind, where);
      twin = kind === 'postgres' ? await openTestStores(kind, where) : stores;
    };
    const close = async () => {
      if (twin !== stores) await twin?.close();
      await stores?.close();
    };
    beforeAll(open);
    afterAll(async () => {
      await close();
      if (kind === 'postgres') await dropSchema(where);
      else fs.rmSync(where, { recursive: true, force: true });
    });
    const opened = (s: Stores | undefined) => {
      if (!s) throw new Error('the stores are not open');
      return s;
    };
    cases({
      kind,
      where,
      stores: () => opened(stores),
      twin: () => opened(twin),
      async reopen(closed = false) {
        if (!closed) await close();
        await open();
      },
    });
  });
}

/** A match record; moves are only stored while a match is 'playing'. */
export function newRecord(status: MatchStatus = 'playing'): {
  match: MatchRecord;
  initial: StoredState;
} {
  const setupData = { sides: { '0': 'US', '1': 'USSR' } as const };
  const seed = newSeed();
  const now = new Date().toISOString();
  const match: MatchRecord = {
    matchID: newMatchID(),
    visibility: 'public',
    status,
    variants: { aftermathCap: 3, finalScoringOrder: 'standard' },
    deck: deckInfoOf(DEFAULT_DECK),
    setupData,
    seed,
    inviteHash: hashSecret('invite'),
    players: [
      { seat: '0', side: 'US', name: 'Ann', credentialsHash: hashSecret('ann') },
      { seat: '1', side: 'USSR', name: null, credentialsHash: null },
    ],
    createdAt: now,
    updatedAt: now,
    result: null,
  };
  return { match, initial: initialState(match) };
}

/** A successor of `state` that differs by `marker`, as a move would produce it. */
export function successor(
  state: StoredState,
  marker: number,
): { next: StoredState; move: MoveRecord } {
  const next = structuredClone(state);
  next._stateID = state._stateID + 1;
  (next.G as State).marker = marker;
  return {
    next,
    move: {
      stateID: next._stateID,
      seat: '1',
      move: 'chooseFirstPlayer',
      args: [marker > 0 ? 'US' : 'USSR'],
      entries: [],
      at: new Date().toISOString(),
    },
  };
}

/** A match stored in `stores`, for the stores of what hangs on a match (chat, subscriptions). */
export async function storedMatch(
  stores: Stores,
  status: MatchStatus = 'playing',
): Promise<string> {
  const { match, initial } = newRecord(status);
  await stores.matches.createMatch(match, initial);
  return match.matchID;
}
