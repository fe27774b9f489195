/// <reference path="../immer-cjs.d.ts" />
import type { IronCurtainGame } from '@iron-curtain/game';
import type { LongFormMove, Move } from 'boardgame.io';
import { original } from 'immer/dist/index.js';

type Json = unknown;

/** A deep copy of plain JSON (the match state is nothing else). */
function copy(value: Json): Json {
  if (Array.isArray(value)) return value.map(copy);
  if (value !== null && typeof value === 'object') {
    const from = value as Record<string, Json>;
    const out: Record<string, Json> = {};
    // Object.keys, not for-in: in Node 26's V8 a for-in whose body reads `from[key]` is
    // optimised and thrown away again and again on a state's many shapes (the read became
    // GetEnumeratedKeyedProperty); it made this walk several times slower (bench/results.md,
    // session 22). Node 22's V8 did not compile it that way.
    for (const key of Object.keys(from)) out[key] = copy(from[key]);
    return out;
  }
  return value;
}

/**
 * `after`, with every part equal to the same part of `before` replaced by `before`'s own
 * object: the result shares what a move left alone with the state before it, as immer's
 * result would. Most of a state is left alone, so a new array or object is made only once a
 * part is found to differ.
 */
function shareUnchanged(before: Json, after: Json): Json {
  if (before === after) return before;
  if (Array.isArray(after)) {
    if (!Array.isArray(before)) return after;
    let out: Json[] | undefined = before.length === after.length ? undefined : [];
    for (let i = 0; i < after.length; i++) {
      const shared = i < before.length ? shareUnchanged(before[i], after[i]) : after[i];
      if (!out && shared !== before[i]) out = before.slice(0, i);
      out?.push(shared);
    }
    return out ?? before;
  }
  if (after !== null && typeof after === 'object') {
    if (before === null || typeof before !== 'object' || Array.isArray(before)) return after;
    const was = before as Record<string, Json>;
    const now = after as Record<string, Json>;
    // Object.keys, not for-in, as in copy.
    const keys = Object.keys(now);
    let out: Record<string, Json> | undefined;
    for (const key of keys) {
      const shared = key in was ? shareUnchanged(was[key], now[key]) : now[key];
      if (!out && (shared !== was[key] || !(key in was))) {
        out = {};
        for (const earlier of keys) {
          if (earlier === key) break;
          out[earlier] = was[earlier];
        }
      }
      if (out) out[key] = shared;
    }
    if (!out) {
      // Every key of `after` is shared: `before` serves unless it has keys `after` lost.
      let count = keys.length;
      for (const _ in was) count -= 1;
      if (count === 0) return before;
      out = {};
      for (const key of keys) out[key] = was[key];
    }
    return out;
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
 * The match's Game with every move run on a plain copy of G. The Game is still what decides:
 * its flow and moves run unchanged through boardgame.io's reducer; only the object a move
 * sees differs. (Its turn's endIf and order read the state itself, never a draft.)
 */
export function withPlainMoves(game: IronCurtainGame): IronCurtainGame {
  const moves = Object.fromEntries(
    Object.entries(game.moves ?? {}).map(([move, fn]) => [move, onPlainCopy(longForm(fn))]),
  );
  return { ...game, moves };
}
