import type { Seat, Side } from '@iron-curtain/game';
import type { Strategy } from './bot.ts';
import type { GameRecord } from './match.ts';

export interface Interval {
  share: number;
  low: number;
  high: number;
}

/** Wilson score interval for a share of `successes` in `trials` (z = 1.96: 95 %). */
export function wilson(successes: number, trials: number, z = 1.96): Interval {
  if (trials === 0) return { share: Number.NaN, low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half =
    (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / (1 + z2 / trials);
  return { share: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** One finished self-play game from the point of view of player A (seat 0). */
export interface SelfPlayGame {
  index: number;
  aSide: Side;
  record: GameRecord;
}

export interface PlayerSummary {
  label: string;
  wins: number;
  games: number;
  interval: Interval;
  bySide: Record<Side, { wins: number; games: number; interval: Interval }>;
  /** Per decision, in milliseconds. */
  decisionMs: { mean: number; p95: number; max: number; count: number };
}

export interface SelfPlaySummary {
  games: number;
  usWins: number;
  usShare: Interval;
  trackEnds: number;
  players: { a: PlayerSummary; b: PlayerSummary };
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

function summarise(label: string, seat: Seat, games: SelfPlayGame[]): PlayerSummary {
  const sideOf = (g: SelfPlayGame): Side =>
    seat === '0' ? g.aSide : g.aSide === 'US' ? 'USSR' : 'US';
  const won = (g: SelfPlayGame) => g.record.winner === seat;
  const bySide = (side: Side) => {
    const mine = games.filter((g) => sideOf(g) === side);
    const wins = mine.filter(won).length;
    return { wins, games: mine.length, interval: wilson(wins, mine.length) };
  };
  const times = games.flatMap((g) => g.record.decisionMs[seat]).sort((x, y) => x - y);
  const wins = games.filter(won).length;
  return {
    label,
    wins,
    games: games.length,
    interval: wilson(wins, games.length),
    bySide: { US: bySide('US'), USSR: bySide('USSR') },
    decisionMs: {
      mean: times.reduce((s, t) => s + t, 0) / Math.max(1, times.length),
      p95: quantile(times, 0.95),
      max: times.length ? (times[times.length - 1] as number) : Number.NaN,
      count: times.length,
    },
  };
}

/** Win rates per player and per side, with 95 % intervals, and the share of US wins. */
export function summariseSelfPlay(
  labels: { a: string; b: string },
  games: SelfPlayGame[],
): SelfPlaySummary {
  const usWins = games.filter((g) => g.record.result.winnerSide === 'US').length;
  return {
    games: games.length,
    usWins,
    usShare: wilson(usWins, games.length),
    trackEnds: games.filter((g) => g.record.result.reason === 'track').length,
    players: { a: summarise(labels.a, '0', games), b: summarise(labels.b, '1', games) },
  };
}

/** A short label for a contestant, e.g. `hard(3000)`. */
export function contestantLabel(strategy: Strategy, iterations?: number): string {
  return strategy === 'hard' && iterations !== undefined ? `hard(${iterations})` : strategy;
}
