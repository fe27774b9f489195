export {
  ANALYSIS_ITERATIONS,
  AnalysisFileError,
  type AnalysisOptions,
  analyseDecision,
  analyseRecord,
  MARK_THRESHOLDS,
  markOf,
  readAnalysedRecord,
  recordKey,
} from './analysis.ts';
export { analysisLines } from './analysis-text.ts';
export {
  BOT_LEVELS,
  type BotLevel,
  type BotOptions,
  chooseDraftedMove,
  chooseMove,
  HARD_ITERATIONS,
  HARD_TIME_MS,
  isStrategy,
  STRATEGIES,
  type Strategy,
} from './bot.ts';
export {
  type Beside,
  type Direction,
  englishMoveWords,
  type MoveWords,
  moveWords,
} from './describe.ts';
export { determinize, unseenCards } from './determinize.ts';
export { BotError } from './errors.ts';
export { ismcts, type SearchBudget, type SearchReport } from './ismcts.ts';
export {
  type Contestant,
  type GameRecord,
  type GameSpec,
  matchRecordOf,
  newGame,
  playGame,
} from './match.ts';
export { candidateMoves, moveKey } from './moves.ts';
export { createRng, type Rng } from './random.ts';
export {
  contestantLabel,
  type Interval,
  type PlayerSummary,
  type SelfPlayGame,
  type SelfPlaySummary,
  summariseSelfPlay,
  wilson,
} from './stats.ts';
