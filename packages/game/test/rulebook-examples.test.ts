import { describe, expect, test } from 'vitest';
import { aftermathScore, reachableBy, type State } from '../src/index.ts';
import {
  cubesOn,
  hand,
  lay,
  newMatch,
  play,
  rulesFor,
  turnOf,
  US_SEAT,
  USSR_SEAT,
} from './support.ts';

/** Sets up the last turn of round 2: `side` plays `card` and only scoring remains after it. */
function lastTurnOfRoundTwo(state: State, side: 'US' | 'USSR', card: string): State {
  const seat = side === 'US' ? US_SEAT : USSR_SEAT;
  const other = seat === US_SEAT ? USSR_SEAT : US_SEAT;
  hand(state, other, []);
  hand(state, seat, [card]);
  state.reserve = [];
  state.round = 2;
  state.plays = 7;
  state.firstSeat = other;
  state.decision = { kind: 'playCard', seat };
  return state;
}

describe('regional scoring: the Asia example (Asia has 3 cards, bonus 2)', () => {
  test.each`
    japan                 | marker | bonusTo | points
    ${{ US: 1, USSR: 1 }} | ${3}   | ${'US'} | ${{ US: 3, USSR: 0 }}
    ${{ US: 1, USSR: 2 }} | ${0}   | ${null} | ${{ US: 1, USSR: 1 }}
  `('Japan $japan: marker $marker, bonus to $bonusTo', ({ japan, marker, bonusTo, points }) => {
    const state = turnOf(newMatch(), 'USSR');
    hand(state, USSR_SEAT, ['vietnam']);
    lay(state, [
      ['pakistan', 0, 1, 1, 0],
      ['japan', 1, 1, japan.US, japan.USSR],
    ]);

    const log = play(state, 'USSR', 'playCard', 'vietnam', { x: 2, y: 1 });

    const scored = log.find((e) => e.type === 'regionScored');
    expect(scored).toMatchObject({ score: { region: 'asia', bonusTo, points }, final: false });
    expect(state.marker).toBe(marker);
    expect(state.scoredRegions).toEqual(['asia']);
  });
});

describe('Command: the Vietnam example (USSR Commands 4; the US controls South Africa)', () => {
  test('2 points for the first cube, which breaks control; then 1 each', () => {
    const state = turnOf(newMatch(), 'USSR');
    hand(state, USSR_SEAT, ['vietnam']);
    lay(state, [
      ['algeria', 1, 0, 0, 1],
      ['south-africa', 2, 0, 2, 0],
    ]);
    play(state, 'USSR', 'playCard', 'vietnam', { x: 0, y: 1 });
    play(state, 'USSR', 'chooseAction', 'command');

    const costs = [
      ...play(state, 'USSR', 'placeCube', 'south-africa'),
      ...play(state, 'USSR', 'placeCube', 'south-africa'),
      ...play(state, 'USSR', 'placeCube', 'algeria'),
    ].flatMap((e) => (e.type === 'place' ? [e.cost] : []));

    expect(costs).toEqual([2, 1, 1]);
    expect(cubesOn(state, 'south-africa')).toEqual({ US: 2, USSR: 2 });
    expect(cubesOn(state, 'algeria')).toEqual({ US: 0, USSR: 2 });
    expect(state.decision).toEqual({ kind: 'playCard', seat: US_SEAT });
  });
});

describe('Infiltrate: the East Germany example', () => {
  test('gains 1 IP, then infiltrates a controlled card at no extra cost and an unreachable card', () => {
    const state = turnOf(newMatch(), 'USSR');
    hand(state, USSR_SEAT, ['east-germany']);
    lay(state, [
      ['south-africa', 1, 0, 2, 0],
      ['zaire', 2, 0, 0, 0],
    ]);
    expect(reachableBy(state, 'USSR').has('zaire')).toBe(false);

    play(state, 'USSR', 'playCard', 'east-germany', { x: -1, y: 0 });
    const gained = play(state, 'USSR', 'chooseAction', 'event');
    const placed = [
      ...play(state, 'USSR', 'placeCube', 'south-africa'),
      ...play(state, 'USSR', 'placeCube', 'zaire'),
    ];

    expect(gained).toContainEqual({ type: 'gain', side: 'USSR', amount: 1, marker: -1 });
    expect(placed.flatMap((e) => (e.type === 'place' ? [[e.mode, e.cost]] : []))).toEqual([
      ['infiltrate', 1],
      ['infiltrate', 1],
    ]);
    expect(cubesOn(state, 'south-africa')).toEqual({ US: 2, USSR: 1 });
    expect(cubesOn(state, 'zaire')).toEqual({ US: 0, USSR: 1 });
    expect(state.marker).toBe(-1);
  });
});

describe('aftermath: sum each flag’s command values, the higher sum gains the difference', () => {
  test.each`
    example                         | cards                          | cap     | delta
    ${'US card 3 vs USSR card 1'}   | ${['west-germany', 'hungary']} | ${3}    | ${2}
    ${'Israel vs Cuba'}             | ${['israel', 'cuba']}          | ${3}    | ${1}
    ${'two USSR cards totalling 6'} | ${['vietnam', 'poland']}       | ${3}    | ${-3}
    ${'the same without a cap'}     | ${['vietnam', 'poland']}       | ${null} | ${-6}
  `('$example (cap $cap): marker moves $delta', ({ cards, cap, delta }) => {
    const state = newMatch({ variants: { aftermathCap: cap } });
    expect(aftermathScore(rulesFor(state), cards).delta).toBe(delta);
  });
});

describe('final scoring', () => {
  /** Marker +6; Europe will give the US 4, Asia would give the USSR 5 afterwards. */
  function usAboutToReachFlagInEurope(): State {
    const state = lastTurnOfRoundTwo(newMatch(), 'USSR', 'nigeria');
    state.marker = 6;
    state.aftermath = { '0': 'zaire', '1': 'chile' };
    lay(state, [
      ['europe', 0, 0, 2, 1],
      ['pakistan', 0, 1, 0, 1],
      ['japan', 1, 1, 0, 1],
      ['vietnam', 2, 1, 0, 1],
    ]);
    return state;
  }

  test('scores the aftermath, then regions in order, and stops the moment a flag is reached', () => {
    const state = usAboutToReachFlagInEurope();
    play(state, 'USSR', 'playCard', 'nigeria', { x: 0, y: -1 });
    play(state, 'USSR', 'chooseAction', 'command');
    const log = play(state, 'USSR', 'finishStep');

    expect(state.finalScoring?.map((s) => (s.kind === 'region' ? s.score.region : s.kind))).toEqual(
      ['aftermath', 'europe'],
    );
    expect(state.result).toEqual({ winnerSide: 'US', reason: 'track' });
    expect(state.marker).toBe(8);
    expect(log.at(-1)).toEqual({ type: 'gameOver', result: state.result, marker: 8 });
    expect(log.some((e) => e.type === 'regionScored' && e.score.region === 'asia')).toBe(false);
  });

  test.each`
    order         | winnerSide | reason     | marker
    ${'standard'} | ${'US'}    | ${'track'} | ${8}
    ${'polish'}   | ${'US'}    | ${'final'} | ${4}
  `(
    '$order order: South America before Central America or after',
    ({ order, winnerSide, reason, marker }) => {
      const state = lastTurnOfRoundTwo(
        newMatch({ variants: { finalScoringOrder: order } }),
        'USSR',
        'nigeria',
      );
      state.marker = 5;
      state.aftermath = { '0': 'zaire', '1': 'chile' };
      // South America (Chile is in the aftermath) gives the US 1 + 2 = 3 and reaches its flag;
      // Central America gives the USSR 2 + 2 = 4 and, scored first, keeps the marker off the flag.
      lay(state, [
        ['brazil', 1, 0, 1, 0],
        ['cuba', 0, 1, 0, 1],
        ['panama', 1, 1, 0, 1],
      ]);
      play(state, 'USSR', 'playCard', 'nigeria', { x: -1, y: 0 });
      play(state, 'USSR', 'chooseAction', 'command');
      play(state, 'USSR', 'finishStep');

      expect(state.result).toEqual({ winnerSide, reason });
      expect(state.marker).toBe(marker);
    },
  );

  test('a marker at the centre after final scoring: the US wins', () => {
    const state = lastTurnOfRoundTwo(newMatch(), 'USSR', 'nigeria');
    state.aftermath = { '0': 'zaire', '1': 'chile' };
    play(state, 'USSR', 'playCard', 'nigeria', { x: 1, y: 0 });
    play(state, 'USSR', 'chooseAction', 'command');
    play(state, 'USSR', 'finishStep');

    expect(state.marker).toBe(0);
    expect(state.result).toEqual({ winnerSide: 'US', reason: 'final' });
  });
});

describe('round 2: the player behind chooses who goes first', () => {
  test.each`
    marker | chooser
    ${2}   | ${USSR_SEAT}
    ${-2}  | ${US_SEAT}
    ${0}   | ${USSR_SEAT}
  `('marker $marker: seat $chooser chooses', ({ marker, chooser }) => {
    const state = newMatch();
    state.firstSeat = USSR_SEAT;
    state.plays = 7;
    state.marker = marker;
    hand(state, US_SEAT, ['france', 'hungary']);
    hand(state, USSR_SEAT, ['vietnam']);
    state.decision = { kind: 'playCard', seat: US_SEAT };

    play(state, 'US', 'playCard', 'france', { x: 1, y: 0 });
    play(state, 'US', 'chooseAction', 'command');
    play(state, 'US', 'finishStep');

    expect(state.decision).toEqual({ kind: 'chooseFirstPlayer', seat: chooser });
    expect(state.round).toBe(2);
    expect(state.aftermath).toEqual({ [US_SEAT]: 'hungary', [USSR_SEAT]: 'vietnam' });
    expect(state.hands[US_SEAT]).toHaveLength(4);
    expect(state.hands[USSR_SEAT]).toHaveLength(4);
    expect(state.reserve).toEqual([]);
  });
});
