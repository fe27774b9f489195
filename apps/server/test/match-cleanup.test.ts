import { DEFAULT_DECK, type State } from '@iron-curtain/game';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEANUP_EVERY_MS, MatchCleanup } from '../src/lobby/match-cleanup.ts';
import { initialState } from '../src/match/engine.ts';
import { loadConfig } from '../src/ops/config.ts';
import { createLogger } from '../src/ops/logger.ts';
import { createMetrics } from '../src/ops/metrics.ts';
import { hashSecret, newMatchID, newSeed } from '../src/ops/secrets.ts';
import type { MatchStatus, MoveRecord, Stores } from '../src/storage/index.ts';
import { ManualTime } from './manual-time.ts';
import {
  deckInfoOf,
  dropSchema,
  openTestStores,
  POSTGRES_URL,
  type StoreKind,
  tempDir,
  uniqueSchema,
} from './support.ts';

const DAY = 24 * 60 * 60 * 1000;
const logger = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));

const setupData = { sides: { '0': 'US', '1': 'USSR' } as const };

/**
 * A match in `store` last touched `daysAgo` days before the fake clock's now, with its chat (two lines,
 * both rooms) and, once both seats are taken, a move.
 */
async function storedIn(
  store: Stores,
  time: ManualTime,
  status: MatchStatus,
  daysAgo: number,
): Promise<string> {
  const at = new Date(time.now() - daysAgo * DAY).toISOString();
  const seed = newSeed();
  const matchID = newMatchID();
  const deck = deckInfoOf(DEFAULT_DECK);
  const initial = initialState({ deck, setupData, seed });
  const waiting = status === 'waiting';
  await store.matches.createMatch(
    {
      matchID,
      visibility: 'public',
      status: waiting ? 'waiting' : 'playing',
      variants: { aftermathCap: 3, finalScoringOrder: 'standard' },
      deck,
      setupData,
      seed,
      inviteHash: hashSecret('invite'),
      players: [
        { seat: '0', side: 'US', name: 'Ann', credentialsHash: hashSecret('ann') },
        waiting
          ? { seat: '1', side: 'USSR', name: null, credentialsHash: null }
          : { seat: '1', side: 'USSR', name: 'Boris', credentialsHash: hashSecret('boris') },
      ],
      createdAt: at,
      updatedAt: at,
      result: null,
    },
    initial,
  );
  await store.chat.addChatLine({ matchID, room: 'players', seat: '0', phrase: 'goodLuck', at });
  await store.chat.addChatLine({ matchID, room: 'spectators', seat: null, text: 'hi', at });
  if (waiting) return matchID;
  const next = structuredClone(initial);
  next._stateID = 1;
  (next.G as State).marker = 1;
  const move: MoveRecord = {
    stateID: 1,
    seat: '0',
    move: 'finishStep',
    args: [],
    entries: [],
    at,
  };
  expect(await store.matches.commitMove(matchID, 0, next, move, null)).toBe(true);
  if (status === 'finished') {
    await store.matches.finishMatch(
      matchID,
      { winner: '0', winnerSide: 'US', reason: 'track' },
      at,
    );
  }
  return matchID;
}

async function raw(sql: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql, params);
  } finally {
    await client.end();
  }
}

describe.each(['sqlite', 'postgres'] as StoreKind[])(
  'old-match cleanup on the %s store',
  (kind) => {
    const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
    let store: Stores;
    const time = new ManualTime();
    beforeAll(async () => {
      store = await openTestStores(kind, where);
    });
    afterAll(async () => {
      await store.close();
      if (kind === 'postgres') await dropSchema(where);
    });

    const stored = (status: MatchStatus, daysAgo: number) => storedIn(store, time, status, daysAgo);

    async function gone(matchID: string): Promise<boolean> {
      return (
        (await store.matches.getMatch(matchID)) === undefined &&
        (await store.matches.loadState(matchID)) === undefined &&
        (await store.matches.readMoves(matchID)).length === 0 &&
        (await store.chat.readChat(matchID)).length === 0
      );
    }

    async function kept(matchID: string): Promise<boolean> {
      return (
        (await store.matches.getMatch(matchID)) !== undefined &&
        (await store.matches.loadState(matchID)) !== undefined &&
        (await store.chat.readChat(matchID)).length === 2
      );
    }

    it('keeps chat lines in order with their match; a line for a match that is not there is not stored', async () => {
      const matchID = await stored('playing', 0);
      expect((await store.chat.readChat(matchID)).map((l) => l.phrase ?? l.text)).toEqual([
        'goodLuck',
        'hi',
      ]);
      expect(
        await store.chat.addChatLine({
          matchID: 'Z'.repeat(16),
          room: 'players',
          seat: '0',
          phrase: 'oops',
          at: new Date().toISOString(),
        }),
      ).toBeUndefined();
      await store.chat.setMuting(matchID, '1', true);
      await store.chat.setChatOff(matchID, true);
      const match = await store.matches.getMatch(matchID);
      expect(match?.chatOff).toBe(true);
      expect(match?.players.map((p) => p.mutingOpponent ?? false)).toEqual([false, true]);
    });

    it('the periodic job removes unfinished matches nobody touched for 7 days with all their data, keeps the rest, logs and counts it', async () => {
      const metrics = createMetrics();
      const lines: string[] = [];
      const recording = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
      const staleWaiting = await stored('waiting', 8);
      const stalePlaying = await stored('playing', 8);
      const recentPlaying = await stored('playing', 6);
      const oldFinished = await stored('finished', 400);
      const cleanup = new MatchCleanup({
        matches: store.matches,
        metrics,
        logger: recording,
        time,
        config: { UNFINISHED_MATCH_DAYS: 7, FINISHED_MATCH_DAYS: undefined },
      });
      const runs = async () =>
        (await metrics.cleanupRuns.get()).values.reduce((n, v) => n + v.value, 0);
      cleanup.start();
      try {
        time.advance(0);
        await expect.poll(runs).toBe(1);
        expect(await gone(staleWaiting)).toBe(true);
        expect(await gone(stalePlaying)).toBe(true);
        expect(await kept(recentPlaying)).toBe(true);
        expect(await kept(oldFinished)).toBe(true);
        const removed = Object.fromEntries(
          (await metrics.matchesRemoved.get()).values.map((v) => [v.labels.status, v.value]),
        );
        expect(removed).toEqual({ waiting: 1, playing: 1 });
        expect(
          lines.some((l) => l.includes('old matches removed') && l.includes('"removed":2')),
        ).toBe(true);

        // Two days later the next hourly run takes the match that has now waited 8 days.
        time.skip(2 * DAY);
        time.advance(CLEANUP_EVERY_MS);
        await expect.poll(runs).toBe(2);
        expect(await gone(recentPlaying)).toBe(true);
        expect(await kept(oldFinished)).toBe(true);
      } finally {
        await cleanup.stop();
      }
      expect(time.pending).toBe(0);
    });

    it('with FINISHED_MATCH_DAYS set, finished matches older than that go too; newer ones stay', async () => {
      const oldFinished = await stored('finished', 31);
      const newFinished = await stored('finished', 29);
      const cleanup = new MatchCleanup({
        matches: store.matches,
        metrics: createMetrics(),
        logger,
        time,
        config: { UNFINISHED_MATCH_DAYS: 7, FINISHED_MATCH_DAYS: 30 },
      });
      expect((await cleanup.run())?.map((m) => m.matchID)).toContain(oldFinished);
      expect(await gone(oldFinished)).toBe(true);
      expect(await kept(newFinished)).toBe(true);
    });

    it('a run is bounded, oldest first; removing the same matches twice, or at once, is harmless', async () => {
      const ids = [
        await stored('playing', 12),
        await stored('playing', 11),
        await stored('playing', 10),
      ];
      const unfinishedBefore = new Date(time.now() - 7 * DAY).toISOString();
      const query = { unfinishedBefore, finishedBefore: null, limit: 2 };
      expect((await store.matches.removeMatches(query))?.map((m) => m.matchID)).toEqual(
        ids.slice(0, 2),
      );
      expect(await kept(ids[2] as string)).toBe(true);
      // Two runs at once (two instances): the match goes once, neither fails.
      const both = await Promise.all([
        store.matches.removeMatches(query),
        store.matches.removeMatches(query),
      ]);
      expect(both.flatMap((r) => r ?? []).map((m) => m.matchID)).toEqual([ids[2]]);
      expect(await store.matches.removeMatches(query)).toEqual([]);
      expect(await gone(ids[2] as string)).toBe(true);
    });
  },
);

describe('the Postgres move log', () => {
  const schema = uniqueSchema();
  let store: Stores;
  beforeAll(async () => {
    store = await openTestStores('postgres', schema);
  });
  afterAll(async () => {
    await store.close();
    await dropSchema(schema);
  });

  it('outside a removal still refuses DELETE', async () => {
    const matchID = await storedIn(store, new ManualTime(), 'playing', 0);
    await expect(
      raw(`DELETE FROM "${schema}".moves WHERE match_id = $1`, [matchID]),
    ).rejects.toThrow(/append-only/);
    expect((await store.matches.readMoves(matchID)).length).toBe(1);
  });
});
