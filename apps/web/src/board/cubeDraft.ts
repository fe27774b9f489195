import {
  type CardId,
  draftPlacements,
  type Move,
  type RulesContext,
  type Seat,
  type State,
} from '@iron-curtain/game';
import { useMemo, useState } from 'react';
import { type Choices, choicesFor } from './choices.ts';

/**
 * The cubes of a Command or Infiltrate step, chosen on the table before they are sent: each one
 * is played on a copy of the view by the engine (draftPlacements), and what may be drafted next
 * is the engine's legalMoves on that copy. Nothing here knows a rule.
 */
export interface CubeDraft {
  /** The view with the drafted cubes on the table: the view itself while nothing is drafted. */
  view: State;
  /** What the seat may do on the drafted view. */
  choices: Choices;
  /** A placement step of this seat is being drafted. */
  active: boolean;
  /** The drafted cubes, as placeCube arguments in order. */
  cubes: unknown[][];
  /** How many drafted cubes each card has. */
  drafted: Record<CardId, number>;
  /** Nothing more can be drafted: the points are spent or no card can take a cube. */
  complete: boolean;
  /** Points (or cubes) the step had, and what the draft leaves of them. */
  total: number;
  left: number;
  /** Drafts one more cube (a placeCube move's arguments). */
  add: (args: unknown[]) => void;
  /** Takes the last drafted cube back, from `cardId` when given. */
  takeBack: (cardId?: CardId) => void;
  /**
   * The one move that commits the draft: its cubes as placeCubes (which ends the step), or
   * finishStep when none is drafted.
   */
  move: () => Move;
}

const NONE: unknown[][] = [];

export function useCubeDraft(
  rules: RulesContext,
  view: State,
  seat: Seat | null,
  choices: Choices,
): CubeDraft {
  // The draft belongs to the view it was made on: a new state starts an empty one.
  const [draft, setDraft] = useState<{ on: State; cubes: unknown[][] }>({ on: view, cubes: NONE });
  const cubes = draft.on === view ? draft.cubes : NONE;
  const played = useMemo(
    () => (seat === null ? null : draftPlacements(rules, view, seat, cubes)),
    [rules, view, seat, cubes],
  );
  const draftView = played?.state ?? view;
  const draftChoices = useMemo(
    () => (played && seat !== null ? choicesFor(rules, played.state, seat) : choices),
    [rules, played, seat, choices],
  );
  const accepted = played?.accepted ?? [];
  const drafted: Record<CardId, number> = {};
  for (const [cardId] of accepted) drafted[cardId as CardId] = (drafted[cardId as CardId] ?? 0) + 1;
  const complete = played?.complete ?? false;
  const remaining = (state: State) =>
    state.decision?.kind === 'placeCubes' ? state.decision.remaining : 0;

  return {
    view: played && accepted.length > 0 ? draftView : view,
    choices: draftChoices,
    active: played !== null,
    cubes: accepted,
    drafted,
    complete,
    total: remaining(view),
    left: remaining(draftView),
    add: (args) => setDraft({ on: view, cubes: [...accepted, args] }),
    takeBack: (cardId) => {
      const at =
        cardId === undefined ? accepted.length - 1 : accepted.findLastIndex((c) => c[0] === cardId);
      if (at < 0) return;
      // The cubes after it are drafted again: the engine drops any that no longer fit.
      setDraft({ on: view, cubes: accepted.filter((_, i) => i !== at) });
    },
    move: () =>
      accepted.length > 0
        ? { move: 'placeCubes', args: [accepted] }
        : { move: 'finishStep', args: [] },
  };
}
