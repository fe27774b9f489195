export { legalCells, neighbours, reachableBy } from './board.ts';
export { parseEffect } from './deck/effects.ts';
export * from './deck/index.ts';
export { indexDeck } from './deck-index.ts';
export {
  cachedGames,
  type Gameover,
  gameoverOf,
  INVALID_MOVE,
  type IronCurtainGame,
  ironCurtain,
  ironCurtainFor,
} from './game.ts';
export { describeLogEntry } from './log.ts';
export {
  entriesOf,
  type FullState,
  type GameReducer,
  initialFull,
  type KeptState,
  keptState,
  reducerFor,
  type Step,
  stepMove,
} from './reducer-steps.ts';
export {
  type MatchRecord,
  matchRecordSchema,
  moveRecordSchema,
  RECORD_VERSION,
  ReplayError,
  type ReplayResult,
  type ReplayStep,
  replay,
  replaySteps,
} from './replay.ts';
export {
  applyMove,
  draftPlacements,
  legalMoves,
  type MoveOutcome,
  type PlacementDraft,
  placementTargets,
} from './rules.ts';
export {
  type DeckRef,
  deckRef,
  type RulesContext,
  rulesKey,
} from './rules-context.ts';
export {
  aftermathScore,
  commandCost,
  controlledBy,
  dominatedBy,
  finalScoringOrder,
  regionScore,
  TRACK_END,
} from './scoring.ts';
export {
  createState,
  type Deal,
  dealSchema,
  parseSetupData,
  rulesOf,
  type Setup,
  type SetupData,
  SetupError,
  setupDataSchema,
} from './setup.ts';
export {
  CUBES_PER_SIDE,
  eachSeatPlayedACard,
  PLAYS_PER_ROUND,
  type State,
  seatOf,
  supplyOf,
} from './state.ts';
export * from './types.ts';
export { STANDARD_VARIANTS, variantsSchema } from './variants.ts';
export { aftermathRevealed, type PublicView, publicView, viewFor } from './view.ts';
