import { applyMove, viewFor } from '@iron-curtain/game';
import { InitializeGame } from 'boardgame.io/internal';
import {
  BENCH_SETUP_DATA,
  IronCurtainGame,
  legalMovesOf,
  type Seat,
  type State,
} from './iron-curtain.ts';

export interface FrameSample {
  /** A real update frame from the middle of a game: a seat's view of G, ctx, state id. */
  frame: unknown;
  bytes: number;
  /** JSON sizes of every frame of one random game, in bytes. */
  sizes: { first: number; median: number; max: number; moves: number };
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * Plays one random game through the engine and measures the update frame seat '0' would
 * receive after each move ({ matchID, state: { G: viewFor(G), ctx, stateID }, entries }),
 * the message our game service sends. G's deck data is part of every frame.
 */
export function sampleFrame(seed = 'bench-frame'): FrameSample {
  const initial = InitializeGame({
    game: { ...IronCurtainGame, seed },
    numPlayers: 2,
    setupData: BENCH_SETUP_DATA,
  });
  const G = structuredClone(initial.G) as State;
  const frameAt = (stateID: number, entries: unknown[]) => ({
    matchID: 'benchFrame0001',
    state: { G: viewFor(G, '0'), ctx: initial.ctx, stateID },
    entries,
  });
  const frames: { frame: unknown; bytes: number }[] = [];
  let stateID = 0;
  for (let i = 0; i < 500 && !G.result; i++) {
    const seat = G.decision?.seat as Seat | undefined;
    if (!seat) break;
    const options = legalMovesOf(G, seat);
    const pick = options[i % options.length];
    if (!pick) break;
    const outcome = applyMove(G, seat, pick.move, pick.args);
    if (!outcome.ok) throw new Error(`the engine refused its own legal move: ${outcome.error}`);
    stateID += 1;
    const frame = frameAt(stateID, outcome.log);
    frames.push({ frame, bytes: bytesOf(frame) });
  }
  const bySize = [...frames].sort((a, b) => a.bytes - b.bytes);
  const median = bySize[Math.floor(bySize.length / 2)];
  if (!median) throw new Error('the sample game made no move');
  return {
    frame: median.frame,
    bytes: median.bytes,
    sizes: {
      first: bytesOf(frameAt(0, [])),
      median: median.bytes,
      max: bySize.at(-1)?.bytes ?? 0,
      moves: frames.length,
    },
  };
}
