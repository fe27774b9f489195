import { RECORD_VERSION, type MatchRecord as ReplayRecord } from '@iron-curtain/game';
import { deckFileOfMatch } from '../decks/built-in-decks.ts';
import { LobbyError } from '../edge/lobby-error.ts';
import type { MatchStore } from '../storage/index.ts';

/**
 * The replay record of a finished match: the format's version, setupData with its deck file,
 * the seed, every move and the players' names. Never for a match in play: the seed would
 * reveal the deal.
 */
export async function replayRecordOf(
  matches: Pick<MatchStore, 'getMatch' | 'readMoves'>,
  matchID: string,
): Promise<ReplayRecord> {
  const match = await matches.getMatch(matchID);
  if (!match) throw new LobbyError(404, 'NOT_FOUND', 'no such match');
  if (match.status !== 'finished') {
    throw new LobbyError(409, 'NOT_FINISHED', 'a match can be replayed once it is over');
  }
  const setupData = match.setupData as Record<string, unknown> & ReplayRecord['setupData'];
  const moves = await matches.readMoves(matchID);
  const [first, second] = match.players;
  return {
    version: RECORD_VERSION,
    setupData: { ...setupData, deck: deckFileOfMatch(match) },
    seed: match.seed,
    moves: moves.map((m) => ({ playerID: m.seat, move: m.move, args: m.args })),
    // A match closed before its second player came has a free seat: no names then.
    ...(first.name !== null && second.name !== null
      ? {
          names: { [first.seat]: first.name, [second.seat]: second.name } as Record<
            '0' | '1',
            string
          >,
        }
      : {}),
  };
}
