import { type MyGamesResponse, myGamesResponseSchema } from '@iron-curtain/protocol';
import { z } from 'zod/mini';

/**
 * The last My games answer this browser received, and when (its clock), kept so that the home
 * page shows it when the server cannot be reached: the installed app opened offline.
 */
const savedMyGamesSchema = z.object({
  receivedAt: z.number(),
  answer: myGamesResponseSchema,
});
export type SavedMyGames = z.infer<typeof savedMyGamesSchema>;

const KEY = 'iron-curtain:my-games';

export function saveMyGames(saved: SavedMyGames, storage: Storage = localStorage): void {
  try {
    storage.setItem(KEY, JSON.stringify(saved));
  } catch {
    // Storage full or off: the page works online as before, offline it has no view to show.
  }
}

/**
 * The last answer kept, with only the matches this browser still holds a seat in (one handed
 * over since is not shown); null when none is kept or it cannot be read.
 */
export function savedMyGames(
  held: ReadonlySet<string>,
  storage: Storage = localStorage,
): SavedMyGames | null {
  let parsed: ReturnType<typeof savedMyGamesSchema.safeParse>;
  try {
    parsed = savedMyGamesSchema.safeParse(JSON.parse(storage.getItem(KEY) ?? 'null'));
  } catch {
    return null;
  }
  if (!parsed.success) return null;
  const games: MyGamesResponse['games'] = parsed.data.answer.games.filter((g) =>
    held.has(g.matchID),
  );
  return { ...parsed.data, answer: { ...parsed.data.answer, games } };
}
