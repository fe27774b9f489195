import {
  type MatchRecord,
  matchRecordSchema,
  RECORD_VERSION,
  replaySteps,
  type State,
} from '../src/index.ts';

type RecordedMove = MatchRecord['moves'][number];

/** Cubes placed so far in the placement step a state waits for; -1 when it waits for none. */
const placedInStep = (state: State): number =>
  state.decision?.kind === 'placeCubes'
    ? Object.values(state.decision.placed).reduce((sum, n) => sum + n, 0)
    : -1;

/**
 * A version 1 record (each cube a placeCube move) as a client of today sends the same match: the
 * cubes of each placement step, and the finishStep that ends it early, as one placeCubes move.
 */
export function asConfirmedDrafts(record: MatchRecord): MatchRecord {
  const steps = [...replaySteps(record)];
  const moves: RecordedMove[] = [];
  let draft: { playerID: RecordedMove['playerID']; cubes: unknown[][] } | null = null;
  const close = () => {
    if (draft) moves.push({ playerID: draft.playerID, move: 'placeCubes', args: [draft.cubes] });
    draft = null;
  };
  for (const [index, move] of matchRecordSchema.parse(record).moves.entries()) {
    const before = steps[index]?.state as State;
    if (move.move === 'placeCube') {
      // A new step starts with no cube placed in it.
      if (placedInStep(before) === 0) close();
      draft ??= { playerID: move.playerID, cubes: [] };
      draft.cubes.push(move.args);
      continue;
    }
    if (move.move === 'finishStep' && draft && placedInStep(before) > 0) {
      close();
      continue;
    }
    close();
    moves.push(move);
  }
  close();
  return { ...record, version: RECORD_VERSION, moves };
}
