import type { FinalScoringStep, LogEntry, RulesContext, State } from '@iron-curtain/game';
import { useEffect, useMemo, useState } from 'react';
import { useReducedMotion } from '../app/motion.ts';
import { useGameWords } from '../i18n/gameWords.ts';
import { type Beat, scoringBeats } from './scoringBeats.ts';

/** Time a beat stays before the next when the show plays by itself. */
export const BEAT_MS = 700;
/** A beat that moves the marker stays longer: the marker walks its steps on the track first. */
export const MARKER_BEAT_MS = 1500;

/**
 * The final scoring played as a show before the winner is told: the beats shown so far, the
 * marker and the region of the beat on screen. The table, the track and the result all read it.
 */
export interface ScoringShow {
  beats: Beat[];
  /** How many beats are on screen (at least 1 while there are any). */
  shown: number;
  /** The show was skipped: it is put away. */
  closed: boolean;
  /** The result may be told: there is no show, or it ended or was skipped (and stays told). */
  revealed: boolean;
  /** Where the marker stands at the beat on screen (the view's marker once revealed or without a show). */
  marker: number;
  /** The region scored at the beat on screen, lit on the table; null outside a region's step. */
  region: string | null;
  /** The step of final scoring the beat on screen belongs to. */
  step: FinalScoringStep | undefined;
  next: () => void;
  skip: () => void;
  again: () => void;
}

/** Entries that tell the end before the show has: the final scoring's and the result. */
export const tellsTheEnd = (entry: LogEntry): boolean =>
  entry.type === 'gameOver' ||
  entry.type === 'aftermathRevealed' ||
  (entry.type === 'regionScored' && entry.final);

const fresh = (key: string | null) => ({ key, shown: 1, closed: false, revealed: false });

export function useScoringShow(rules: RulesContext, view: State): ScoringShow {
  const words = useGameWords();
  const reduced = useReducedMotion();
  const steps = view.result ? (view.finalScoring ?? []) : [];
  // One show per finished game: a new state of the same end (a clock, a rematch) keeps it.
  const key = steps.length > 0 ? JSON.stringify([view.result, view.marker, steps.length]) : null;
  const finished = key !== null;
  const beats = useMemo(
    () => (finished ? scoringBeats(rules, view, words) : []),
    [finished, rules, view, words],
  );
  const [state, setState] = useState(() => fresh(key));
  const current = state.key === key ? state : fresh(key);
  const done = current.shown >= beats.length;
  const update = (change: Partial<typeof current>) => setState({ ...current, ...change });

  // One timer per beat: each shown beat schedules the next.
  const beat = beats[Math.min(current.shown, beats.length) - 1];
  const before = beats[current.shown - 2];
  const pause = before && beat && before.marker !== beat.marker ? MARKER_BEAT_MS : BEAT_MS;
  const shown = current.shown;
  useEffect(() => {
    if (reduced || current.closed || done) return;
    const timer = setTimeout(
      // The state may still hold an earlier position (the game ended since): this show starts afresh.
      () => setState((s) => ({ ...(s.key === key ? s : fresh(key)), shown: shown + 1 })),
      pause,
    );
    return () => clearTimeout(timer);
  }, [reduced, current.closed, shown, done, key, pause]);

  const revealed = beats.length === 0 || current.revealed || current.closed || done;
  const step = beat ? steps[beat.step] : undefined;
  return {
    beats,
    shown: current.shown,
    closed: current.closed,
    revealed,
    marker: current.closed || !beat ? view.marker : beat.marker,
    region: !current.closed && !done && step?.kind === 'region' ? step.score.region : null,
    step,
    next: () =>
      update({ shown: current.shown + 1, revealed: revealed || current.shown + 1 >= beats.length }),
    skip: () => update({ closed: true, revealed: true }),
    again: () => update({ shown: 1, closed: false, revealed: true }),
  };
}
