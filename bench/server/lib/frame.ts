import { applyMove, viewFor } from '@iron-curtain/game';
import { viewPatch } from '@iron-curtain/protocol';
import { InitializeGame } from 'boardgame.io/internal';
import {
  BENCH_RULES,
  BENCH_SETUP_DATA,
  IronCurtainGame,
  legalMovesOf,
  type Seat,
  type State,
} from './iron-curtain.ts';

export interface FrameSample {
  /** A real update message from the middle of a game (the median one seat '0' receives). */
  frame: unknown;
  bytes: number;
  /** JSON sizes of every frame of one random game, in bytes. */
  sizes: {
    sync: number;
    median: number;
    max: number;
    moves: number;
    /** Bytes one move sends to both seats and the spectators together. */
    perMoveMedian: number;
    perMoveMax: number;
  };
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * Plays one random game through the engine and measures the messages our game service sends
 * seat '0': the sync at the start ({ matchID, playerID, rules, state: { G, stateID }, log,
 * presence } without presence) and the update after each move ({ matchID, from, stateID,
 * patch, entries }: the change to the seat's view as a JSON Patch). Also the bytes one move
 * puts on the wire for all three recipients (both seats and the spectators, one message each).
 */
export function sampleFrame(seed = 'bench-frame'): FrameSample {
  const setupData = BENCH_SETUP_DATA;
  const rules = BENCH_RULES;
  const initial = InitializeGame({ game: { ...IronCurtainGame, seed }, numPlayers: 2, setupData });
  const G = structuredClone(initial.G) as State;
  const matchID = 'benchFrame0001';
  const sync = {
    matchID,
    playerID: '0',
    rules,
    state: { G: viewFor(G, '0'), stateID: 0 },
    log: [],
  };
  const frames: { frame: unknown; bytes: number; allRecipients: number }[] = [];
  let stateID = 0;
  for (let i = 0; i < 500 && !G.result; i++) {
    const seat = G.decision?.seat as Seat | undefined;
    if (!seat) break;
    const options = legalMovesOf(G, seat);
    const pick = options[i % options.length];
    if (!pick) break;
    const before = { '0': viewFor(G, '0'), '1': viewFor(G, '1'), spectators: viewFor(G, null) };
    const outcome = applyMove(rules, G, seat, pick.move, pick.args);
    if (!outcome.ok) throw new Error(`the engine refused its own legal move: ${outcome.error}`);
    stateID += 1;
    const updateFor = (viewer: '0' | '1' | null) => ({
      matchID,
      from: stateID - 1,
      stateID,
      patch: viewPatch(before[viewer ?? 'spectators'], viewFor(G, viewer)),
      entries: outcome.log,
    });
    const frame = updateFor('0');
    const allRecipients = bytesOf(frame) + bytesOf(updateFor('1')) + bytesOf(updateFor(null));
    frames.push({ frame, bytes: bytesOf(frame), allRecipients });
  }
  const bySize = [...frames].sort((a, b) => a.bytes - b.bytes);
  const median = bySize[Math.floor(bySize.length / 2)];
  const byMove = frames.map((f) => f.allRecipients).sort((a, b) => a - b);
  if (!median) throw new Error('the sample game made no move');
  return {
    frame: median.frame,
    bytes: median.bytes,
    sizes: {
      sync: bytesOf(sync),
      median: median.bytes,
      max: bySize.at(-1)?.bytes ?? 0,
      moves: frames.length,
      perMoveMedian: byMove[Math.floor(byMove.length / 2)] ?? 0,
      perMoveMax: byMove.at(-1) ?? 0,
    },
  };
}
