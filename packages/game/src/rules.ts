import { cardsIn, isLegalCell, legalCells, placedCard, reachableBy } from './board.ts';
import { indexDeck } from './deck-index.ts';
import type { RulesContext } from './rules-context.ts';
import {
  aftermathScore,
  commandCost,
  finalScoringOrder,
  regionScore,
  TRACK_END,
} from './scoring.ts';
import {
  PLAYS_PER_ROUND,
  RESERVE_HAND_SIZE,
  type State,
  seatOf,
  supplyOf,
  turnSeat,
} from './state.ts';
import {
  type CardId,
  type Cell,
  DECISION_MOVES,
  isSeat,
  type LogEntry,
  MOVE_ARGUMENTS,
  type Move,
  type MoveName,
  opponentOf,
  otherSeat,
  type PlaceCubesDecision,
  type PlacedCard,
  type QueuedStep,
  type RemoveCubesDecision,
  type Result,
  type Seat,
  SIDES,
  type Side,
} from './types.ts';

export type MoveOutcome = { ok: true; log: LogEntry[] } | { ok: false; error: string };

const refuse = (error: string): MoveOutcome => ({ ok: false, error });

const isCell = (value: unknown): value is Cell =>
  typeof value === 'object' &&
  value !== null &&
  Number.isSafeInteger((value as Cell).x) &&
  Number.isSafeInteger((value as Cell).y);

// ---------------------------------------------------------------- the track

/** Moves the marker (positive towards the US); reaching a flag ends the game at once. */
function moveMarker(state: State, delta: number): void {
  state.marker = Math.max(-TRACK_END, Math.min(TRACK_END, state.marker + delta));
  if (Math.abs(state.marker) === TRACK_END) {
    endGame(state, { winnerSide: state.marker > 0 ? 'US' : 'USSR', reason: 'track' });
  }
}

function endGame(state: State, result: Result): void {
  state.result = result;
  state.decision = null;
  state.queue = [];
}

/** A card on the table that the rules already know is there. */
function onTable(state: State, cardId: CardId): PlacedCard {
  const card = placedCard(state, cardId);
  if (!card) throw new Error(`card '${cardId}' is not on the table`);
  return card;
}

function scoreRegion(
  rules: RulesContext,
  state: State,
  region: string,
  final: boolean,
  log: LogEntry[],
): void {
  const score = regionScore(rules, state, region);
  moveMarker(state, score.delta);
  log.push({ type: 'regionScored', score, marker: state.marker, final });
  if (final) state.finalScoring?.push({ kind: 'region', score, marker: state.marker });
}

// ------------------------------------------------------------ step machine

/** What one more cube on a target of the placement step costs now; null when it cannot take one. */
function placementCost(state: State, d: PlaceCubesDecision, cardId: CardId): number | null {
  const card = placedCard(state, cardId);
  if (!card) return null;
  if (d.maxPerCard !== null && (d.placed[cardId] ?? 0) >= d.maxPerCard) return null;
  const cost = d.mode === 'command' ? commandCost(card.cubes, d.side) : 1;
  return cost <= d.remaining ? cost : null;
}

/** Cards the current placement step may put a cube on now, with the cost of one cube there. */
export function placementTargets(
  state: State,
  d: PlaceCubesDecision,
): { cardId: CardId; cost: number }[] {
  const targets: { cardId: CardId; cost: number }[] = [];
  for (const cardId of d.targets) {
    const cost = placementCost(state, d, cardId);
    if (cost !== null) targets.push({ cardId, cost });
  }
  return targets;
}

/** Cards the current remove step may take an opponent's cube from now. */
export function removalTargets(state: State, d: RemoveCubesDecision): CardId[] {
  const opponent = opponentOf(d.side);
  return d.targets.filter((id) => (placedCard(state, id)?.cubes[opponent] ?? 0) > 0);
}

/** Cards holding a cube of `side`: where a cube may be taken back from when its supply is empty. */
function holdersOf(state: State, side: Side): CardId[] {
  const holders: CardId[] = [];
  for (const p of state.table) if (p.cubes[side] > 0) holders.push(p.cardId);
  return holders;
}

function stepIsOver(rules: RulesContext, state: State): boolean {
  const d = state.decision;
  if (!d) return true;
  if (d.kind === 'placeCubes')
    return d.remaining <= 0 || !d.targets.some((id) => placementCost(state, d, id) !== null);
  if (d.kind === 'removeCubes') return d.remaining <= 0 || removalTargets(state, d).length === 0;
  if (d.kind === 'moveCard') return legalCells(rules, state, d.cardId, true).length === 0;
  return false;
}

/**
 * One cube of a placement step: `cardId` is the target, `from` the card of the side's own to take
 * the cube from when its supply is empty. Validates first; changes nothing when it refuses. The
 * step itself is not advanced: the caller decides what follows.
 */
function placeCube(
  state: State,
  d: PlaceCubesDecision,
  cardId: unknown,
  from: unknown,
): MoveOutcome {
  const cost =
    typeof cardId === 'string' && d.targets.includes(cardId)
      ? placementCost(state, d, cardId)
      : null;
  if (cost === null) return refuse('you cannot place a cube on that card now');
  const target = { cardId: cardId as CardId, cost };
  const supply = supplyOf(state, d.side);
  if (supply > 0 && from !== undefined)
    return refuse('take cubes back only when your supply is empty');
  if (
    supply === 0 &&
    (from === target.cardId || !holdersOf(state, d.side).includes(from as CardId))
  ) {
    return refuse('your supply is empty: name a card of yours to take the cube from');
  }
  if (supply === 0) onTable(state, from as CardId).cubes[d.side] -= 1;
  onTable(state, target.cardId).cubes[d.side] += 1;
  d.remaining -= target.cost;
  d.placed[target.cardId] = (d.placed[target.cardId] ?? 0) + 1;
  return {
    ok: true,
    log: [
      {
        type: 'place',
        side: d.side,
        cardId: target.cardId,
        cost: target.cost,
        from: supply === 0 ? (from as CardId) : null,
        mode: d.mode,
      },
    ],
  };
}

/** Cubes of a placement step chosen but not yet played: what the step would look like after them. */
export interface PlacementDraft {
  /**
   * A copy of the state after the drafted cubes (sharing what cubes leave alone with the state
   * it was drafted on: read it, do not change it); the step is left open, nothing after it resolves.
   */
  state: State;
  /** The drafted placeCube arguments the rules accept, in order: the rest, from the first refused, are left out. */
  accepted: unknown[][];
  /** The step would end with the last accepted cube: nothing left to spend, or no card can take one. */
  complete: boolean;
}

/** The drafted cubes played on a copy, and the first one the rules refused, if any. */
interface PlayedDraft {
  draft: State;
  accepted: unknown[][];
  refused?: { index: number; reason: string };
}

/**
 * Plays `placements` (placeCube arguments) on a copy of `state`, whose decision is a placement
 * step, one cube after another with the rules applyMove uses, without advancing past the step;
 * stops at the first cube refused. The copy shares with `state` what cubes leave alone.
 */
function playDraft(rules: RulesContext, state: State, placements: readonly unknown[]): PlayedDraft {
  // Cubes change only the table's cubes and the step: the rest is shared, not copied (and a
  // copy made by reading works on boardgame.io's immer draft, where structuredClone fails).
  const step = state.decision as PlaceCubesDecision;
  const d: PlaceCubesDecision = { ...step, placed: { ...step.placed } };
  const draft: State = {
    ...state,
    table: state.table.map((p) => ({ ...p, cubes: { ...p.cubes } })),
    decision: d,
  };
  const accepted: unknown[][] = [];
  for (const [index, args] of placements.entries()) {
    if (stepIsOver(rules, draft))
      return { draft, accepted, refused: { index, reason: 'the step has nothing left to place' } };
    if (!Array.isArray(args) || args.length < 1 || args.length > 2)
      return {
        draft,
        accepted,
        refused: { index, reason: 'a cube is [card] or [card, card to take it from]' },
      };
    const placed = placeCube(draft, d, args[0], args[1]);
    if (!placed.ok) return { draft, accepted, refused: { index, reason: placed.error } };
    accepted.push(args);
  }
  return { draft, accepted };
}

/**
 * The current Command or Infiltrate step of `seat` after `placements` (each the arguments of a
 * placeCube move), played on a copy with the same rules applyMove uses, without advancing past
 * the step. legalMoves on the draft's state lists what may be drafted next (nothing but
 * finishStep once it is complete); the accepted placements, sent as one placeCubes move (or
 * played one by one with placeCube), reach the same table. Null when `seat` has no placement
 * step to decide.
 */
export function draftPlacements(
  rules: RulesContext,
  state: State,
  seat: Seat,
  placements: readonly unknown[][],
): PlacementDraft | null {
  if (state.result || state.decision?.kind !== 'placeCubes' || state.decision.seat !== seat)
    return null;
  const { draft, accepted } = playDraft(rules, state, placements);
  return { state: draft, accepted, complete: stepIsOver(rules, draft) };
}

/**
 * A confirmed draft: every cube of `placements` is checked in order on a copy first, and only
 * when all are accepted are they placed; the step then ends (finishStep when cubes are left to
 * spend). A refusal names the first cube refused and changes nothing.
 */
function placeDraft(
  rules: RulesContext,
  state: State,
  d: PlaceCubesDecision,
  placements: unknown,
  log: LogEntry[],
): MoveOutcome {
  if (!Array.isArray(placements) || placements.length === 0)
    return refuse('placeCubes takes a list of one or more cubes');
  const { refused } = playDraft(rules, state, placements);
  if (refused) {
    const cube = placements[refused.index];
    return refuse(
      `cube ${refused.index + 1} of ${placements.length} (${JSON.stringify(cube)}): ${refused.reason}; nothing was placed`,
    );
  }
  for (const args of placements as unknown[][]) {
    const placed = placeCube(state, d, args[0], args[1]);
    if (!placed.ok) throw new Error(`a checked cube was refused: ${placed.error}`);
    log.push(...placed.log);
  }
  if (!stepIsOver(rules, state)) log.push({ type: 'finishStep', side: d.side });
  state.decision = null;
  return { ok: true, log };
}

/** Begins one queued step: a gain resolves at once, an interactive step becomes the decision. */
function startStep(rules: RulesContext, state: State, queued: QueuedStep, log: LogEntry[]): void {
  const { side, source, step } = queued;
  const seat = seatOf(state, side);
  switch (step.op) {
    case 'gain':
      moveMarker(state, side === 'US' ? step.amount : -step.amount);
      log.push({ type: 'gain', side, amount: step.amount, marker: state.marker });
      return;
    case 'command': {
      // No chaining: what is reachable is fixed now, before any cube of this action is placed.
      const reachable = reachableBy(state, side);
      const targets = cardsIn(rules, state, step.targets).filter((id) => reachable.has(id));
      state.decision = {
        kind: 'placeCubes',
        seat,
        side,
        source,
        mode: 'command',
        remaining: step.amount,
        targets,
        maxPerCard: null,
        placed: {},
      };
      break;
    }
    case 'infiltrate':
      state.decision = {
        kind: 'placeCubes',
        seat,
        side,
        source,
        mode: 'infiltrate',
        remaining: step.amount,
        targets: cardsIn(rules, state, step.targets),
        maxPerCard: step.maxPerCard,
        placed: {},
      };
      break;
    case 'remove':
      state.decision = {
        kind: 'removeCubes',
        seat,
        side,
        source,
        remaining: step.amount,
        targets: cardsIn(rules, state, step.targets),
      };
      break;
    case 'move':
      if (placedCard(state, step.card)) {
        state.decision = { kind: 'moveCard', seat, side, source, cardId: step.card };
      }
      break;
  }
  // A step with no legal target does nothing.
  if (stepIsOver(rules, state)) {
    state.decision = null;
    log.push({ type: 'noTarget', side, cardId: source, op: step.op });
  }
}

/** Resolves queued steps until someone must decide or the turn, round or game ends. */
function advance(rules: RulesContext, state: State, log: LogEntry[]): void {
  while (!state.result && !state.decision) {
    const next = state.queue.shift();
    if (next) startStep(rules, state, next, log);
    else endTurn(rules, state, log);
  }
}

function endTurn(rules: RulesContext, state: State, log: LogEntry[]): void {
  state.plays += 1;
  if (state.plays < PLAYS_PER_ROUND) {
    state.decision = { kind: 'playCard', seat: turnSeat(state) as Seat };
    return;
  }
  if (state.round === 1) startRoundTwo(state, log);
  else finalScoring(rules, state, log);
}

function startRoundTwo(state: State, log: LogEntry[]): void {
  for (const seat of ['0', '1'] as const) {
    state.aftermath[seat] = state.hands[seat].pop() ?? null;
    state.hands[seat] = state.reserve.splice(0, RESERVE_HAND_SIZE);
  }
  log.push({ type: 'aftermathSetAside' });
  state.round = 2;
  state.plays = 0;
  state.firstSeat = null;
  log.push({ type: 'roundStarted', round: 2 });
  // The side whose flag the marker is further from chooses; the USSR on a tie.
  const behind: Side = state.marker < 0 ? 'US' : 'USSR';
  state.decision = { kind: 'chooseFirstPlayer', seat: seatOf(state, behind) };
}

function finalScoring(rules: RulesContext, state: State, log: LogEntry[]): void {
  state.finalScoring = [];
  const cards = [state.aftermath['0'], state.aftermath['1']].filter((c): c is CardId => c !== null);
  const score = aftermathScore(rules, cards);
  moveMarker(state, score.delta);
  state.finalScoring.push({ kind: 'aftermath', score, marker: state.marker });
  log.push({ type: 'aftermathRevealed', score, marker: state.marker });
  for (const region of finalScoringOrder(rules)) {
    if (state.result) return;
    scoreRegion(rules, state, region, true, log);
  }
  // After final scoring the side the marker is on wins; at 0 the US.
  if (!state.result)
    endGame(state, { winnerSide: state.marker >= 0 ? 'US' : 'USSR', reason: 'final' });
}

function queueCommand(rules: RulesContext, side: Side, cardId: CardId): QueuedStep {
  const amount = indexDeck(rules.deck).card(cardId).command ?? 0;
  return { side, source: cardId, step: { op: 'command', amount, targets: { kind: 'any' } } };
}

function queueEvent(rules: RulesContext, side: Side, cardId: CardId): QueuedStep[] {
  return indexDeck(rules.deck)
    .card(cardId)
    .effects.map((step) => ({ side, source: cardId, step }));
}

// ------------------------------------------------------------------- moves

/**
 * Applies one move for `seat`. Validates everything first: a refused move
 * changes nothing. On success returns the public log entries it produced.
 */
export function applyMove(
  rules: RulesContext,
  state: State,
  seat: unknown,
  move: unknown,
  args: unknown,
): MoveOutcome {
  const outcome = resolveMove(rules, state, seat, move, args);
  if (outcome.ok && state.result)
    outcome.log.push({ type: 'gameOver', result: state.result, marker: state.marker });
  return outcome;
}

function resolveMove(
  rules: RulesContext,
  state: State,
  seat: unknown,
  move: unknown,
  args: unknown,
): MoveOutcome {
  const d = state.decision;
  if (state.result) return refuse('the game is over');
  if (!isSeat(seat)) return refuse('only a seat (0 or 1) can move');
  if (!d || d.seat !== seat) return refuse(`it is not seat ${seat}'s decision`);
  if (!Array.isArray(args)) return refuse('args must be an array');
  if (!(DECISION_MOVES[d.kind] as readonly unknown[]).includes(move)) {
    return refuse(`${String(move)} is not allowed now: seat ${seat} must ${d.kind}`);
  }
  const forms = MOVE_ARGUMENTS[move as MoveName];
  if (!forms.some((form) => form.length === args.length)) {
    const counts = forms.map((form) => form.length);
    return refuse(`${String(move)} takes ${counts.join(' or ')} argument(s)`);
  }
  const log: LogEntry[] = [];
  const side = state.sides[seat];
  const [a, b] = args as unknown[];

  switch (move as MoveName) {
    case 'chooseFirstPlayer': {
      if (a !== 'US' && a !== 'USSR') return refuse('chooseFirstPlayer takes US or USSR');
      state.firstSeat = seatOf(state, a);
      state.decision = { kind: 'playCard', seat: state.firstSeat };
      log.push({ type: 'firstPlayer', round: state.round, chooser: side, first: a });
      return { ok: true, log };
    }
    case 'playCard': {
      if (typeof a !== 'string' || !state.hands[seat].includes(a))
        return refuse('that card is not in your hand');
      if (!isCell(b)) return refuse('playCard needs a cell {x, y} of whole numbers');
      if (!isLegalCell(rules, state, a, b))
        return refuse('that cell is not a legal place for this card');
      state.hands[seat].splice(state.hands[seat].indexOf(a), 1);
      state.table.push({ cardId: a, x: b.x, y: b.y, cubes: { US: 0, USSR: 0 } });
      log.push({ type: 'play', side, cardId: a, x: b.x, y: b.y });
      const deck = indexDeck(rules.deck);
      const card = deck.card(a);
      const region = deck.region(card.region);
      const onTable = state.table.filter((p) => deck.card(p.cardId).region === region.id).length;
      if (onTable === region.size && !state.scoredRegions.includes(region.id)) {
        state.scoredRegions.push(region.id);
        scoreRegion(rules, state, region.id, false, log);
        if (state.result) return { ok: true, log };
      }
      state.decision =
        card.flag === side
          ? { kind: 'chooseAction', seat, cardId: a }
          : { kind: 'decideEvent', seat: otherSeat(seat), cardId: a };
      return { ok: true, log };
    }
    case 'chooseAction': {
      if (d.kind !== 'chooseAction' || (a !== 'event' && a !== 'command')) {
        return refuse("chooseAction takes 'event' or 'command'");
      }
      log.push({ type: 'action', side, cardId: d.cardId, choice: a });
      state.queue =
        a === 'event' ? queueEvent(rules, side, d.cardId) : [queueCommand(rules, side, d.cardId)];
      state.decision = null;
      advance(rules, state, log);
      return { ok: true, log };
    }
    case 'decideEvent': {
      if (d.kind !== 'decideEvent' || typeof a !== 'boolean')
        return refuse('decideEvent takes true or false');
      log.push({ type: 'eventDecision', side, cardId: d.cardId, use: a });
      const activeSide = opponentOf(side);
      state.queue = [
        ...(a ? queueEvent(rules, side, d.cardId) : []),
        queueCommand(rules, activeSide, d.cardId),
      ];
      state.decision = null;
      advance(rules, state, log);
      return { ok: true, log };
    }
    case 'placeCube': {
      if (d.kind !== 'placeCubes') return refuse('there is no cube to place now');
      const placed = placeCube(state, d, a, b);
      if (!placed.ok) return placed;
      log.push(...placed.log);
      break;
    }
    case 'placeCubes': {
      if (d.kind !== 'placeCubes') return refuse('there is no cube to place now');
      const placed = placeDraft(rules, state, d, a, log);
      if (!placed.ok) return placed;
      break;
    }
    case 'removeCube': {
      if (d.kind !== 'removeCubes') return refuse('there is no cube to remove now');
      if (typeof a !== 'string' || !removalTargets(state, d).includes(a))
        return refuse('you cannot remove a cube from that card');
      onTable(state, a).cubes[opponentOf(d.side)] -= 1;
      d.remaining -= 1;
      log.push({ type: 'remove', side: d.side, cardId: a });
      break;
    }
    case 'moveCard': {
      if (d.kind !== 'moveCard' || a !== d.cardId) return refuse('that card cannot be moved now');
      if (!isCell(b) || !isLegalCell(rules, state, a, b, true))
        return refuse('that cell is not a legal place for this card');
      const card = onTable(state, a);
      card.x = b.x;
      card.y = b.y;
      log.push({ type: 'move', side: d.side, cardId: a, x: b.x, y: b.y });
      state.decision = null;
      break;
    }
    case 'finishStep': {
      log.push({ type: 'finishStep', side: state.sides[seat] });
      state.decision = null;
      break;
    }
  }
  if (stepIsOver(rules, state)) state.decision = null;
  advance(rules, state, log);
  return { ok: true, log };
}

// ------------------------------------------------------------- legal moves

/**
 * Every legal move for `seat` now (none when it is not that seat's decision): exactly the moves
 * applyMove accepts, but for placeCubes. A confirmed draft is not listed (its lists of cubes
 * are too many to list); applyMove accepts one exactly when its cubes are, one after another,
 * placeCube moves this lists on the draft (draftPlacements) before the step is complete.
 */
export function legalMoves(rules: RulesContext, state: State, seat: unknown): Move[] {
  const d = state.decision;
  if (state.result || !d || d.seat !== seat) return [];
  switch (d.kind) {
    case 'chooseFirstPlayer':
      return SIDES.map((side) => ({ move: 'chooseFirstPlayer', args: [side] }));
    case 'playCard':
      return state.hands[d.seat].flatMap((cardId) =>
        legalCells(rules, state, cardId).map((cell) => ({
          move: 'playCard' as const,
          args: [cardId, cell],
        })),
      );
    case 'chooseAction':
      return [
        { move: 'chooseAction', args: ['event'] },
        { move: 'chooseAction', args: ['command'] },
      ];
    case 'decideEvent':
      return [
        { move: 'decideEvent', args: [true] },
        { move: 'decideEvent', args: [false] },
      ];
    case 'placeCubes': {
      // With an empty supply every pair of target and card to take the cube from is a move:
      // the list is long, and search lists it at every cube.
      const holders = supplyOf(state, d.side) === 0 ? holdersOf(state, d.side) : null;
      const moves: Move[] = [];
      for (const { cardId } of placementTargets(state, d)) {
        if (!holders) moves.push({ move: 'placeCube', args: [cardId] });
        else
          for (const from of holders)
            if (from !== cardId) moves.push({ move: 'placeCube', args: [cardId, from] });
      }
      moves.push({ move: 'finishStep', args: [] });
      return moves;
    }
    case 'removeCubes':
      return [
        ...removalTargets(state, d).map((cardId) => ({
          move: 'removeCube' as const,
          args: [cardId],
        })),
        { move: 'finishStep', args: [] },
      ];
    case 'moveCard':
      return [
        ...legalCells(rules, state, d.cardId, true).map((cell) => ({
          move: 'moveCard' as const,
          args: [d.cardId, cell],
        })),
        { move: 'finishStep', args: [] },
      ];
  }
}
