import {
  DEFAULT_DECK,
  deckFileOf,
  legalMoves,
  replay,
  type Seat,
  viewFor,
} from '@iron-curtain/game';
import { describe, expect, it } from 'vitest';
import {
  chooseMove,
  type GameSpec,
  matchRecordOf,
  moveKey,
  newGame,
  playGame,
  STRATEGIES,
  type Strategy,
} from '../src/index.ts';
import { play } from '../src/simple.ts';

/** Few iterations keep the tests fast; strength is measured in bench/, not here. */
const QUICK = { iterations: 30, timeMs: 60_000 };

describe('every level plays legal moves to the end of a game', () => {
  for (const strategy of STRATEGIES) {
    for (const side of ['US', 'USSR'] as const) {
      it(`${strategy} as the ${side} against random`, () => {
        const { rules, state } = newGame(`legal-${strategy}-${side}`, side);
        let decisions = 0;
        while (state.decision && !state.result) {
          const seat = state.decision.seat;
          const level: Strategy = seat === '0' ? strategy : 'random';
          const move = chooseMove(rules, viewFor(state, seat), seat, level, {
            ...QUICK,
            seed: decisions,
          });
          const legal = legalMoves(rules, state, seat).map(moveKey);
          expect(legal).toContain(moveKey(move));
          play(rules, state, seat, move);
          decisions += 1;
        }
        expect(state.result).not.toBeNull();
        expect(decisions).toBeGreaterThan(10);
      });
    }
  }
});

describe('self-play games', () => {
  it('replay exactly from their seed', () => {
    const spec = {
      seed: 'replay',
      players: {
        '0': { strategy: 'hard', options: QUICK },
        '1': { strategy: 'medium' },
      } satisfies Record<Seat, { strategy: Strategy; options?: typeof QUICK }>,
      seat0Side: 'USSR' as const,
    };
    const first = playGame(spec);
    const second = playGame(spec);
    expect(second.moves).toEqual(first.moves);
    expect(second.result).toEqual(first.result);
  });

  it('play with the deck and edition they name, and their records replay with them', () => {
    const deck = structuredClone(deckFileOf(DEFAULT_DECK));
    const zaire = deck.cards.find((c) => c.id === 'zaire');
    if (!zaire) throw new Error('the default deck has no Zaire');
    zaire.command = 4;
    const spec = {
      seed: 'changed-deck',
      players: { '0': { strategy: 'medium' }, '1': { strategy: 'medium' } },
      seat0Side: 'US',
      rules: { deck, variants: { aftermathCap: null } },
    } satisfies GameSpec;
    const { rules } = newGame(spec.seed, spec.seat0Side, spec.rules);
    expect(rules.deck.cards.find((c) => c.id === 'zaire')?.command).toBe(4);
    expect(rules.variants.aftermathCap).toBeNull();
    const played = playGame(spec);
    const replayed = replay(matchRecordOf(spec, played));
    expect(replayed.rules.deck.hash).toBe(rules.deck.hash);
    expect(replayed.state.result).toEqual(played.result);
    expect(replayed.state.marker).toBe(played.marker);
  });

  it('hard beats the uniformly random player by a wide margin (fixed seeds)', () => {
    let wins = 0;
    const games = 8;
    for (let i = 0; i < games; i++) {
      const record = playGame({
        seed: `strength-${i >> 1}`,
        players: { '0': { strategy: 'hard', options: QUICK }, '1': { strategy: 'random' } },
        seat0Side: i % 2 === 0 ? 'US' : 'USSR',
      });
      if (record.winner === '0') wins += 1;
    }
    expect(wins).toBeGreaterThanOrEqual(7);
  });

  it('medium beats the one-ply greedy player by a wide margin (fixed seeds)', () => {
    let wins = 0;
    const games = 10;
    for (let i = 0; i < games; i++) {
      const record = playGame({
        seed: `medium-${i >> 1}`,
        players: { '0': { strategy: 'medium' }, '1': { strategy: 'greedy' } },
        seat0Side: i % 2 === 0 ? 'US' : 'USSR',
      });
      if (record.winner === '0') wins += 1;
    }
    expect(wins).toBeGreaterThanOrEqual(8);
  });
});
