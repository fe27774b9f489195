import {
  applyMove,
  ironCurtainFor,
  legalMoves,
  type Seat,
  type State,
  viewFor,
} from '@iron-curtain/game';
import { InitializeGame } from 'boardgame.io/internal';

export interface FrameSample {
  /** A real update frame from the middle of a game: a seat's view of the state and the state id. */
  frame: unknown;
  bytes: number;
  /** JSON sizes of every frame of one random game, in bytes. */
  sizes: { first: number; median: number; max: number; moves: number };
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * Plays one random game through the engine and measures the update frame seat '0' would
 * receive after each move ({ matchID, state: { G: viewFor(G), stateID }, entries }),
 * the message our game service sends.
 */
export function sampleFrame(seed = 'bench-frame'): FrameSample {
  const setupData = { sides: { '0': 'US', '1': 'USSR' } };
  const { game, rules } = ironCurtainFor(setupData);
  const initial = InitializeGame({ game: { ...game, seed }, numPlayers: 2, setupData });
  const G = structuredClone(initial.G) as State;
  const frameAt = (stateID: number, entries: unknown[]) => ({
    matchID: 'benchFrame0001',
    state: { G: viewFor(G, '0'), stateID },
    entries,
  });
  const frames: { frame: unknown; bytes: number }[] = [];
  let stateID = 0;
  for (let i = 0; i < 500 && !G.result; i++) {
    const seat = G.decision?.seat as Seat | undefined;
    if (!seat) break;
    const options = legalMoves(rules, G, seat);
    const pick = options[i % options.length];
    if (!pick) break;
    const outcome = applyMove(rules, G, seat, pick.move, pick.args);
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
