import type { DecisionKind, Move, Seat } from '@iron-curtain/game';
import type { EnglishResources } from '../i18n/en.ts';

/**
 * What the tutorial points at: the first entry whose `when` selector matches the page (or that
 * has none) names the element, by a selector, that the pointer rings.
 */
export interface Pointing {
  when?: string;
  at: string;
}

/** One move of the scripted first game; a learner's move carries the hint that leads to it. */
export interface ScriptedMove extends Move {
  seat: Seat;
  /** The hint's key (under `coach.`) and where it points, for the learner's decisions. */
  coach?: { hint: keyof EnglishResources['coach']; point: Pointing[] };
}

const cell = (x: number, y: number) => `.board-grid .legal-cell[data-cell="${x},${y}"]`;
const hand = (card: string) => `.own-hand [data-choice="hand"][data-card="${card}"]`;
const selected = (card: string) => `${hand(card)}[aria-pressed="true"]`;
const target = (card: string) => `.board-grid button.table-card.target[data-card="${card}"]`;
const drafted = (card: string, n: number) =>
  `.board-grid [data-card="${card}"] .draft-badge[data-drafted="${n}"]`;
const ALL_SPENT = '.cube-draft[data-draft-left="0"]';
const CONFIRM = '[data-confirm-cubes]';

/**
 * The first turns of the tutorial's game, both sides' moves in order: the learner (the US, seat 0)
 * is led through playing a card, Command with a draft of cubes (confirmed as one move), a card
 * of the other flag and an event of their own flag played by the computer. Off the script
 * (another move), the hints go on by decision and the easy bot plays.
 */
export const TUTORIAL_SCRIPT: ScriptedMove[] = [
  { seat: '1', move: 'chooseFirstPlayer', args: ['US'] },
  {
    seat: '0',
    move: 'playCard',
    args: ['west-germany', { x: 1, y: 0 }],
    coach: {
      hint: 'firstCard',
      point: [{ when: selected('west-germany'), at: cell(1, 0) }, { at: hand('west-germany') }],
    },
  },
  {
    seat: '0',
    move: 'chooseAction',
    args: ['command'],
    coach: { hint: 'command', point: [{ at: '[data-action="command"]' }] },
  },
  {
    seat: '0',
    move: 'placeCubes',
    args: [[['west-germany'], ['west-germany'], ['europe']]],
    coach: {
      hint: 'cubes',
      point: [
        { when: ALL_SPENT, at: CONFIRM },
        { when: drafted('west-germany', 2), at: target('europe') },
        { at: target('west-germany') },
      ],
    },
  },
  { seat: '1', move: 'playCard', args: ['east-germany', { x: -1, y: 0 }] },
  { seat: '1', move: 'chooseAction', args: ['event'] },
  { seat: '1', move: 'placeCube', args: ['west-germany'] },
  { seat: '1', move: 'placeCube', args: ['west-germany'] },
  {
    seat: '0',
    move: 'playCard',
    args: ['poland', { x: 0, y: 1 }],
    coach: {
      hint: 'otherFlag',
      point: [{ when: selected('poland'), at: cell(0, 1) }, { at: hand('poland') }],
    },
  },
  { seat: '1', move: 'decideEvent', args: [false] },
  {
    seat: '0',
    move: 'placeCubes',
    args: [[['west-germany'], ['west-germany']]],
    coach: {
      hint: 'winBack',
      point: [{ when: ALL_SPENT, at: CONFIRM }, { at: target('west-germany') }],
    },
  },
  { seat: '1', move: 'playCard', args: ['iran', { x: 2, y: 0 }] },
  {
    seat: '0',
    move: 'decideEvent',
    args: [true],
    coach: { hint: 'yourEvent', point: [{ at: '[data-use="true"]' }] },
  },
  {
    seat: '0',
    move: 'placeCubes',
    args: [[['iran'], ['iran'], ['iran']]],
    coach: {
      hint: 'eventCubes',
      point: [{ when: ALL_SPENT, at: CONFIRM }, { at: target('iran') }],
    },
  },
];

/** Where the hint points off the script, by decision: what the learner acts on now. */
export const POINT_BY_DECISION: Record<DecisionKind, Pointing[]> = {
  chooseFirstPlayer: [{ at: '.prompt [data-choice="prompt"]' }],
  playCard: [
    { when: '.own-hand [aria-pressed="true"]', at: '.board-grid .legal-cell[data-choice]' },
    { at: '.own-hand [data-choice="hand"]' },
  ],
  chooseAction: [{ at: '.prompt [data-choice="prompt"]' }],
  decideEvent: [{ at: '.prompt [data-choice="prompt"]' }],
  placeCubes: [{ when: ALL_SPENT, at: CONFIRM }, { at: '.board-grid button.table-card.target' }],
  removeCubes: [{ at: '.board-grid button.table-card.target' }],
  moveCard: [{ at: '.board-grid .legal-cell[data-choice]' }],
};

/** The element a hint points at now: the first pointing whose condition holds and whose target is there. */
export function pointedElement(points: Pointing[], root: ParentNode = document): Element | null {
  for (const { when, at } of points) {
    if (when && !root.querySelector(when)) continue;
    const found = root.querySelector(at);
    if (found) return found;
  }
  return null;
}
