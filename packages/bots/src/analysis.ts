import {
  type MatchRecord,
  type Move,
  matchRecordSchema,
  type RulesContext,
  replaySteps,
  type Seat,
  type State,
  viewFor,
} from '@iron-curtain/game';
import {
  type AnalysisFileErrorCode,
  type AnalysisMark,
  analysedRecordFileSchema,
  type DecisionAnalysis,
  type MatchAnalysis,
  type PlayerAnalysis,
} from '@iron-curtain/protocol/analysis';
import { checkView } from './determinize.ts';
import { ismcts } from './ismcts.ts';
import { candidateMoves, moveKey } from './moves.ts';
import { createRng, hashSeed, type Rng } from './random.ts';

/**
 * Chance given away (in the mover's information) from which a decision is marked. lichess marks
 * 10/20/30 points of its win percentage over a deterministic engine; our estimates are Monte
 * Carlo averages whose difference between two choices has a standard error of about 4 points at
 * the default depth (a few hundred playouts each), so the lowest mark sits at about two standard
 * errors and the steps keep lichess's spacing: 10 / 20 / 30 percentage points.
 */
export const MARK_THRESHOLDS: Record<Exclude<AnalysisMark, 'good'>, number> = {
  inaccuracy: 0.1,
  mistake: 0.2,
  blunder: 0.3,
};

/** Default search iterations per decision (bench/results.md: a whole match in <= 60 s). */
export const ANALYSIS_ITERATIONS = 1000;
/** Decisions with few options need fewer iterations: this many per option, within bounds. */
const ITERATIONS_PER_OPTION = 100;
const MIN_ITERATIONS = 400;
/** The played move gets at least this share of a decision's iterations, to estimate it closely. */
const PLAYED_SHARE = 0.3;

export interface AnalysisOptions {
  /** Seeds the searches: the same record, seed and iterations give the same analysis. */
  seed?: string;
  /** The most search iterations per decision (default ANALYSIS_ITERATIONS). */
  iterations?: number;
  /** Called after each decision, e.g. to move a progress bar. */
  onProgress?: (done: number, total: number) => void;
}

export function markOf(loss: number): AnalysisMark {
  if (loss >= MARK_THRESHOLDS.blunder) return 'blunder';
  if (loss >= MARK_THRESHOLDS.mistake) return 'mistake';
  if (loss >= MARK_THRESHOLDS.inaccuracy) return 'inaccuracy';
  return 'good';
}

const plain = (move: Move) => ({ move: move.move, args: move.args });

/**
 * One decision judged in the mover's own information: the input is masked with viewFor first,
 * so the full state and the seat's view give the same judgement. ISMCTS from that view
 * estimates every choice; the played one gets a fixed share of the search.
 */
export function analyseDecision(
  rules: RulesContext,
  position: State,
  seat: Seat,
  played: Move,
  iterations: number,
  rng: Rng,
  index = 0,
): DecisionAnalysis {
  const view = viewFor(position, seat);
  checkView(rules, view, seat);
  const candidates = candidateMoves(rules, view, seat);
  const playedKey = moveKey(played);
  if (candidates.length === 1 && moveKey(candidates[0] as Move) === playedKey) {
    return {
      index,
      seat,
      forced: true,
      played: plain(played),
      playedChance: 0,
      best: plain(played),
      bestChance: 0,
      loss: 0,
      mark: 'good',
      choices: [],
    };
  }
  const budget = {
    iterations: Math.min(
      iterations,
      Math.max(MIN_ITERATIONS, ITERATIONS_PER_OPTION * candidates.length),
    ),
    timeMs: Number.POSITIVE_INFINITY,
    pinned: { move: played, share: PLAYED_SHARE },
  };
  const report = ismcts(rules, view, seat, budget, rng);
  const mine = report.visits.find((v) => v.key === playedKey);
  if (!mine) throw new Error(`move ${index}: the search never tried the played move`);
  // The pinned move may be the most visited by its share alone: the best alternative is the
  // most visited of the others, the search's choice had the played move not been forced on it.
  const other = report.visits.find((v) => v.key !== playedKey);
  const best = other && other.winRate > mine.winRate ? other : mine;
  const loss = best.winRate - mine.winRate;
  return {
    index,
    seat,
    forced: false,
    played: plain(played),
    playedChance: mine.winRate,
    best: plain(best.move),
    bestChance: best.winRate,
    loss,
    mark: markOf(loss),
    choices: report.visits.map((v) => ({
      move: plain(v.move),
      chance: v.winRate,
      visits: v.visits,
    })),
  };
}

/** A hash of what makes a record the match it is. */
export function recordKey(record: MatchRecord): string {
  const { setupData, seed, moves } = matchRecordSchema.parse(record);
  return hashSeed(JSON.stringify({ setupData, seed, moves })).toString(16).padStart(8, '0');
}

function summarise(decisions: DecisionAnalysis[], seat: Seat): PlayerAnalysis {
  const mine = decisions.filter((d) => d.seat === seat && !d.forced);
  const count = (mark: AnalysisMark) => mine.filter((d) => d.mark === mark).length;
  return {
    decisions: mine.length,
    inaccuracy: count('inaccuracy'),
    mistake: count('mistake'),
    blunder: count('blunder'),
    averageLoss: mine.length ? mine.reduce((s, d) => s + d.loss, 0) / mine.length : 0,
  };
}

/**
 * Every decision of a finished match, each judged from its mover's view, and the US's
 * estimated chance after every move. Pure: the same record and options give the same result.
 */
export function analyseRecord(record: MatchRecord, options: AnalysisOptions = {}): MatchAnalysis {
  const seed = options.seed ?? 'analysis';
  const iterations = options.iterations ?? ANALYSIS_ITERATIONS;
  if (!(Number.isSafeInteger(iterations) && iterations > 0))
    throw new Error('iterations must be a positive whole number');
  const steps = [...replaySteps(record)];
  const moves = matchRecordSchema.parse(record).moves;
  const decisions: DecisionAnalysis[] = [];
  const usChance: number[] = [];
  let previous = 0.5;
  for (const [index, { playerID, move, args }] of moves.entries()) {
    const before = steps[index] as (typeof steps)[number];
    const after = (steps[index + 1] as (typeof steps)[number]).state;
    const seat = playerID as Seat;
    const decision = analyseDecision(
      before.rules,
      before.state,
      seat,
      { move, args } as Move,
      iterations,
      createRng(`${seed}:${index}`),
      index,
    );
    decisions.push(decision);
    const mover = before.state.sides[seat];
    const forMover = decision.forced
      ? mover === 'US'
        ? previous
        : 1 - previous
      : decision.playedChance;
    const us = after.result
      ? Number(after.result.winnerSide === 'US')
      : mover === 'US'
        ? forMover
        : 1 - forMover;
    usChance.push(us);
    previous = us;
    options.onProgress?.(index + 1, moves.length);
  }
  return {
    version: 1,
    recordKey: recordKey(record),
    seed,
    iterations,
    decisions,
    usChance,
    summary: { '0': summarise(decisions, '0'), '1': summarise(decisions, '1') },
  };
}

export class AnalysisFileError extends Error {
  override name = 'AnalysisFileError';
  constructor(
    readonly code: AnalysisFileErrorCode,
    readonly issues: string[],
  ) {
    super(`${code}: ${issues.join('; ')}`);
  }
}

const issueText = (issues: { path: readonly PropertyKey[]; message: string }[]) =>
  issues.map((i) => `${i.path.map(String).join('.') || '(file)'}: ${i.message}`);

/**
 * A record file, plain or saved with its analysis. Throws an AnalysisFileError when it is no
 * record, its analysis is malformed, or the analysis belongs to another record (tampered with).
 */
export function readAnalysedRecord(json: unknown): {
  record: MatchRecord;
  analysis: MatchAnalysis | null;
} {
  const withAnalysis =
    typeof json === 'object' && json !== null && 'analysis' in json && 'record' in json;
  const file = withAnalysis ? analysedRecordFileSchema.safeParse(json) : null;
  if (file && !file.success)
    throw new AnalysisFileError('BAD_ANALYSIS', issueText(file.error.issues));
  const parsed = matchRecordSchema.safeParse(file ? file.data.record : json);
  if (!parsed.success) throw new AnalysisFileError('NOT_A_RECORD', issueText(parsed.error.issues));
  const record = parsed.data;
  if (!file) return { record, analysis: null };
  const analysis = file.data.analysis;
  const mismatch =
    analysis.recordKey !== recordKey(record) ||
    analysis.decisions.length !== record.moves.length ||
    analysis.usChance.length !== record.moves.length ||
    analysis.decisions.some(
      (d, i) =>
        d.index !== i ||
        d.seat !== record.moves[i]?.playerID ||
        moveKey(d.played as Move) !== moveKey(record.moves[i] as unknown as Move),
    );
  if (mismatch)
    throw new AnalysisFileError('ANALYSIS_OF_ANOTHER_RECORD', [
      'the analysis does not match the moves of this record',
    ]);
  return { record, analysis };
}
