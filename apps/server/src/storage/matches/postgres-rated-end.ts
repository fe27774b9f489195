import type pg from 'pg';
import type { Row } from '../database/columns.ts';
import { postgresRateMatch } from '../ratings/postgres.ts';
import type { MatchResult } from './match-store.ts';
import { ratingAtEnd } from './rated-end.ts';

/**
 * Inside the transaction that finished the match (its row locked by the finishing update):
 * rates it, or marks why it does not count.
 */
export async function postgresFinishRating(
  c: pg.PoolClient,
  S: string,
  matchID: string,
  result: MatchResult | null,
  at: string,
): Promise<void> {
  const { rows } = await c.query(
    `SELECT m.match_id, m.rated, m.pool, m.unrated,
       (SELECT json_agg(s.account_id ORDER BY s.seat) FROM ${S}.seats s
        WHERE s.match_id = m.match_id) AS accounts
     FROM ${S}.matches m WHERE m.match_id = $1`,
    [matchID],
  );
  const match = rows[0] as Row | undefined;
  if (!match) return;
  const outcome = ratingAtEnd(match, (match.accounts as (string | null)[]) ?? [], result, at);
  if (outcome === null) return;
  if ('unrated' in outcome) {
    await c.query(`UPDATE ${S}.matches SET unrated = $1 WHERE match_id = $2`, [
      outcome.unrated,
      matchID,
    ]);
    return;
  }
  const seats = await postgresRateMatch(c, S, outcome.rate);
  await c.query(`UPDATE ${S}.matches SET ratings = $1 WHERE match_id = $2`, [
    JSON.stringify(seats),
    matchID,
  ]);
}
