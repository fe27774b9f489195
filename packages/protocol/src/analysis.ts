import { MOVE_NAMES } from '@iron-curtain/game';
import { z } from 'zod/mini';
import { seatSchema } from './lobby.ts';

/**
 * How a decision is marked by the chance to win it gave away (best choice's estimate minus the
 * played choice's, in the mover's own information). See packages/bots/src/analysis.ts for why
 * these thresholds.
 */
const ANALYSIS_MARKS = ['good', 'inaccuracy', 'mistake', 'blunder'] as const;
export type AnalysisMark = (typeof ANALYSIS_MARKS)[number];

const chance = z.number().check(z.minimum(0), z.maximum(1));
const count = z.int().check(z.minimum(0));

const analysedMoveSchema = z.strictObject({
  move: z.enum(MOVE_NAMES as [string, ...string[]]),
  args: z.array(z.unknown()),
});

const decisionAnalysisSchema = z.strictObject({
  /** The move's index in the record. */
  index: count,
  seat: seatSchema,
  /** The seat had one sensible choice: nothing was searched and nothing given away. */
  forced: z.boolean(),
  played: analysedMoveSchema,
  /** The mover's estimated chance to win after the played move. */
  playedChance: chance,
  best: analysedMoveSchema,
  bestChance: chance,
  /** bestChance - playedChance, never below 0. */
  loss: chance,
  mark: z.enum(ANALYSIS_MARKS),
  /** Every choice searched, with its estimate and how often the search tried it. */
  choices: z.array(z.strictObject({ move: analysedMoveSchema, chance, visits: count })),
});
export type DecisionAnalysis = z.infer<typeof decisionAnalysisSchema>;

const playerAnalysisSchema = z.strictObject({
  /** Decisions with more than one choice. */
  decisions: count,
  inaccuracy: count,
  mistake: count,
  blunder: count,
  /** Chance given away per decision with a choice, 0..1. */
  averageLoss: chance,
});
export type PlayerAnalysis = z.infer<typeof playerAnalysisSchema>;

const matchAnalysisSchema = z.strictObject({
  version: z.literal(1),
  /** A hash of the record analysed, so an analysis is never shown beside another match. */
  recordKey: z.string(),
  /** The analyser's seed and depth: the same record, seed and depth give the same analysis. */
  seed: z.string(),
  iterations: z.int().check(z.minimum(1)),
  decisions: z.array(decisionAnalysisSchema),
  /** The US's estimated chance to win after every move of the record. */
  usChance: z.array(chance),
  summary: z.strictObject({ '0': playerAnalysisSchema, '1': playerAnalysisSchema }),
});
export type MatchAnalysis = z.infer<typeof matchAnalysisSchema>;

/** A record file saved with its analysis (the record is checked by the engine's own schema). */
export const analysedRecordFileSchema = z.strictObject({
  record: z.unknown(),
  analysis: matchAnalysisSchema,
});

/** Why a record or analysis file was refused; each has a text in the web client. */
const analysisFileErrorCodes = [
  'NOT_A_RECORD',
  'BAD_ANALYSIS',
  'ANALYSIS_OF_ANOTHER_RECORD',
] as const;
export type AnalysisFileErrorCode = (typeof analysisFileErrorCodes)[number];
