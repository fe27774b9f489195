/// <reference path="./glicko2-js.d.ts" />
import { Glicko2 } from 'glicko2';

/**
 * Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012) on the `glicko2` package: a
 * player's rating, its deviation and its volatility, on the Glicko scale (1500 at the centre).
 */
export interface Rating {
  rating: number;
  deviation: number;
  volatility: number;
}

/** Where every player starts: the paper's suggested start. */
export const NEW_PLAYER: Rating = { rating: 1500, deviation: 350, volatility: 0.06 };

/**
 * The system constant τ, which bounds how fast a volatility moves: the paper advises 0.3 to 1.2.
 * 0.75, as lichess rates each game on its own with it: a player pool as young as ours changes in
 * strength quickly, and a larger τ lets the ratings follow.
 */
export const SYSTEM_CONSTANT = 0.75;

/** A rating is provisional, shown with "?", while its deviation is above this. */
export const PROVISIONAL_DEVIATION = 110;

/** One game of a rating period, from the player's side: 1 a win, 0.5 a draw, 0 a loss. */
export interface RatedGame {
  opponent: Rating;
  score: 0 | 0.5 | 1;
}

/**
 * The player's rating after a rating period of these games (the paper's steps 1 to 8; with no
 * game, step 6 alone: the deviation grows). Each side of a match is rated against the other's
 * rating from before it.
 */
export function ratedAfter(
  player: Rating,
  games: readonly RatedGame[],
  tau = SYSTEM_CONSTANT,
): Rating {
  const system = new Glicko2({
    tau,
    rating: NEW_PLAYER.rating,
    rd: NEW_PLAYER.deviation,
    vol: NEW_PLAYER.volatility,
  });
  const self = system.makePlayer(player.rating, player.deviation, player.volatility);
  system.updateRatings(
    games.map((game) => [
      self,
      system.makePlayer(game.opponent.rating, game.opponent.deviation, game.opponent.volatility),
      game.score,
    ]),
  );
  return { rating: self.getRating(), deviation: self.getRd(), volatility: self.getVol() };
}

/** The Glicko-2 scale's factor (the paper's 173.7178). */
const SCALE = 400 / Math.log(10);

/**
 * The deviation after `periods` rating periods without a game: step 6 for each, φ² + σ² on the
 * Glicko-2 scale, never above a new player's. Read-time only: the stored rating keeps its own.
 */
export function deviationAfterAway(rating: Rating, periods: number): number {
  const phi = rating.deviation / SCALE;
  const grown = Math.sqrt(phi * phi + Math.max(0, periods) * rating.volatility ** 2) * SCALE;
  return Math.min(grown, NEW_PLAYER.deviation);
}

/** Whether the rating is still provisional. */
export const provisional = (rating: Pick<Rating, 'deviation'>): boolean =>
  rating.deviation > PROVISIONAL_DEVIATION;
