import type { PostgresDatabase } from '../database/postgres-database.ts';
import { CHAT_LINES_KEPT, type ChatStore } from './chat-store.ts';
import { chatFromRow } from './rows.ts';

export function postgresChatStore({ pool, S }: PostgresDatabase): ChatStore {
  return {
    async addChatLine(line) {
      const { rows } = await pool.query(
        `INSERT INTO ${S}.chat_lines (match_id, room, seat, phrase, text, at)
         SELECT match_id, $2, $3, $4, $5, $6 FROM ${S}.matches WHERE match_id = $1
         RETURNING id`,
        [line.matchID, line.room, line.seat, line.phrase ?? null, line.text ?? null, line.at],
      );
      if (!rows[0]) return undefined;
      await pool.query(
        `DELETE FROM ${S}.chat_lines WHERE match_id = $1 AND room = $2 AND id <= (
           SELECT id FROM ${S}.chat_lines WHERE match_id = $1 AND room = $2
           ORDER BY id DESC OFFSET $3 LIMIT 1)`,
        [line.matchID, line.room, CHAT_LINES_KEPT],
      );
      return { ...line, id: Number(rows[0].id) };
    },

    async readChat(matchID) {
      const { rows } = await pool.query(
        `SELECT * FROM ${S}.chat_lines WHERE match_id = $1 ORDER BY id`,
        [matchID],
      );
      return rows.map(chatFromRow);
    },

    async setChatOff(matchID, off) {
      await pool.query(`UPDATE ${S}.matches SET chat_off = $1 WHERE match_id = $2`, [off, matchID]);
    },

    async setMuting(matchID, seat, muting) {
      await pool.query(
        `UPDATE ${S}.seats SET muting_opponent = $1 WHERE match_id = $2 AND seat = $3`,
        [muting, matchID, seat],
      );
    },
  };
}
