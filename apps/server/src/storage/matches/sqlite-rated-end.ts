import type { SqliteDatabase } from '../database/sqlite-database.ts';
import { sqliteRateMatch } from '../ratings/sqlite.ts';
import type { MatchResult } from './match-store.ts';
import { ratingAtEnd } from './rated-end.ts';

/** Inside the transaction that finished the match: rates it, or marks why it does not count. */
export function sqliteFinishRating(
  db: SqliteDatabase,
  matchID: string,
  result: MatchResult | null,
  at: string,
): void {
  const match = db.one('SELECT match_id, rated, pool, unrated FROM matches WHERE match_id = ?', [
    matchID,
  ]);
  if (!match) return;
  const accounts = db
    .all('SELECT account_id FROM seats WHERE match_id = ? ORDER BY seat', [matchID])
    .map((row) => (row.account_id == null ? null : String(row.account_id)));
  const outcome = ratingAtEnd(match, accounts, result, at);
  if (outcome === null) return;
  if ('unrated' in outcome) {
    db.run('UPDATE matches SET unrated = ? WHERE match_id = ?', [outcome.unrated, matchID]);
    return;
  }
  const seats = sqliteRateMatch(db, outcome.rate);
  db.run('UPDATE matches SET ratings = ? WHERE match_id = ?', [JSON.stringify(seats), matchID]);
}
