import { describe, expect, it } from 'vitest';
import {
  deviationAfterAway,
  NEW_PLAYER,
  provisional,
  type Rating,
  ratedAfter,
} from '../../src/ratings/glicko2.ts';

const rating = (r: number, deviation: number, volatility = 0.06): Rating => ({
  rating: r,
  deviation,
  volatility,
});

describe('Glicko-2', () => {
  it("matches the worked example of Glickman's paper (τ = 0.5)", () => {
    // "Example of the Glicko-2 system", section "Example calculation": a player of 1500, RD 200,
    // plays three games in one rating period.
    const after = ratedAfter(
      rating(1500, 200),
      [
        { opponent: rating(1400, 30), score: 1 },
        { opponent: rating(1550, 100), score: 0 },
        { opponent: rating(1700, 300), score: 0 },
      ],
      0.5,
    );
    expect(after.rating).toBeCloseTo(1464.06, 1);
    expect(after.deviation).toBeCloseTo(151.52, 1);
    expect(after.volatility).toBeCloseTo(0.05999, 4);
  });

  it('gives a win against a far stronger player more than against an equal one, and never loses on a win', () => {
    const player = rating(1500, 80);
    const againstEqual = ratedAfter(player, [{ opponent: rating(1500, 80), score: 1 }]);
    const againstStrong = ratedAfter(player, [{ opponent: rating(2100, 80), score: 1 }]);
    const againstWeak = ratedAfter(player, [{ opponent: rating(900, 80), score: 1 }]);
    expect(againstStrong.rating - 1500).toBeGreaterThan(againstEqual.rating - 1500);
    expect(againstEqual.rating - 1500).toBeGreaterThan(againstWeak.rating - 1500);
    expect(againstWeak.rating).toBeGreaterThanOrEqual(1500);
    // The gain is the loser's loss, as near as their equal deviations make it.
    const loser = ratedAfter(rating(1500, 80), [{ opponent: player, score: 0 }]);
    expect(1500 - loser.rating).toBeCloseTo(againstEqual.rating - 1500, 6);
  });

  it('moves a provisional player further than an established one, and narrows the deviation', () => {
    const opponent = rating(1500, 60);
    const fresh = ratedAfter(NEW_PLAYER, [{ opponent, score: 1 }]);
    const settled = ratedAfter(rating(1500, 60), [{ opponent, score: 1 }]);
    expect(fresh.rating - 1500).toBeGreaterThan(3 * (settled.rating - 1500));
    expect(fresh.deviation).toBeLessThan(NEW_PLAYER.deviation);
    expect(provisional(NEW_PLAYER)).toBe(true);
    expect(provisional(fresh)).toBe(true);
    expect(provisional(settled)).toBe(false);
  });

  it('grows the deviation with time away as step 6 does, capped at a new player’s', () => {
    const player = rating(1800, 60);
    // A rating period with no game is step 6 alone.
    expect(ratedAfter(player, []).deviation).toBeCloseTo(deviationAfterAway(player, 1), 6);
    expect(ratedAfter(player, []).rating).toBe(1800);
    const away = [0, 1, 10, 100, 10_000].map((periods) => deviationAfterAway(player, periods));
    expect(away[0]).toBeCloseTo(60, 9);
    for (let i = 1; i < away.length; i++) {
      expect(away[i]).toBeGreaterThanOrEqual(away[i - 1] as number);
    }
    expect(away.at(-1)).toBe(NEW_PLAYER.deviation);
    // A long absence makes an established rating provisional again.
    expect(provisional({ deviation: deviationAfterAway(player, 100) })).toBe(true);
  });
});
