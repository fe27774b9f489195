import type { SqliteDatabase } from '../database/sqlite-database.ts';
import { CHAT_LINES_KEPT, type ChatStore } from './chat-store.ts';
import { chatFromRow } from './rows.ts';

export function sqliteChatStore(db: SqliteDatabase): ChatStore {
  return {
    async addChatLine(line) {
      const { changes, lastInsertRowid } = await db.write(() => {
        const added = db.run(
          `INSERT INTO chat_lines (match_id, room, seat, phrase, text, at)
         SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM matches WHERE match_id = ?)`,
          [
            line.matchID,
            line.room,
            line.seat,
            line.phrase ?? null,
            line.text ?? null,
            line.at,
            line.matchID,
          ],
        );
        db.run(
          `DELETE FROM chat_lines WHERE match_id = ? AND room = ? AND id <= (
             SELECT id FROM chat_lines WHERE match_id = ? AND room = ?
             ORDER BY id DESC LIMIT 1 OFFSET ?)`,
          [line.matchID, line.room, line.matchID, line.room, CHAT_LINES_KEPT],
        );
        return added;
      });
      return changes === 1 ? { ...line, id: Number(lastInsertRowid) } : undefined;
    },

    async readChat(matchID) {
      const rows = db.all('SELECT * FROM chat_lines WHERE match_id = ? ORDER BY id', [matchID]);
      return rows.map(chatFromRow);
    },

    async setChatOff(matchID, off) {
      await db.write(() =>
        db.run('UPDATE matches SET chat_off = ? WHERE match_id = ?', [off ? 1 : 0, matchID]),
      );
    },

    async setMuting(matchID, seat, muting) {
      await db.write(() =>
        db.run('UPDATE seats SET muting_opponent = ? WHERE match_id = ? AND seat = ?', [
          muting ? 1 : 0,
          matchID,
          seat,
        ]),
      );
    },
  };
}
