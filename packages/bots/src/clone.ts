import type { Decision, State } from '@iron-curtain/game';

function cloneDecision(d: Decision | null): Decision | null {
  if (d === null) return null;
  // A step's target list is fixed when the step starts; only its placed counts change.
  if (d.kind === 'placeCubes') return { ...d, placed: { ...d.placed } };
  return { ...d };
}

/**
 * A copy the engine may mutate without touching the original. Faster than
 * structuredClone for search, and it keeps the deck object shared so the
 * engine's per-deck index cache stays warm. Deck, variants, sides, queued
 * effect steps and finished score records are never mutated by the engine.
 */
export function cloneState(state: State): State {
  return {
    ...state,
    hands: { '0': [...state.hands['0']], '1': [...state.hands['1']] },
    reserve: [...state.reserve],
    aftermath: { ...state.aftermath },
    table: state.table.map((p) => ({ ...p, cubes: { ...p.cubes } })),
    decision: cloneDecision(state.decision),
    queue: [...state.queue],
    scoredRegions: [...state.scoredRegions],
    finalScoring: state.finalScoring ? [...state.finalScoring] : null,
  };
}
