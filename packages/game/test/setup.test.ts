import { describe, expect, test } from 'vitest';
import { DEFAULT_DECK, deckFileOf, ironCurtain, loadDeck, parseSetupData } from '../src/index.ts';
import { deckOrderDeal, newMatch, STANDARD_RULES } from './support.ts';

const IronCurtain = ironCurtain(STANDARD_RULES);

const sides = { '0': 'US', '1': 'USSR' } as const;

describe('setupData is validated with clear errors', () => {
  test.each`
    problem                  | setupData                                                                                                   | error
    ${'both seats one side'} | ${{ sides: { '0': 'US', '1': 'US' } }}                                                                      | ${/setupData\.sides: the two seats must play different sides/}
    ${'no sides'}            | ${{}}                                                                                                       | ${/setupData\.sides: /}
    ${'an unknown variant'}  | ${{ sides, variants: { aftermathCap: 4 } }}                                                                 | ${/setupData\.variants\.aftermathCap/}
    ${'an unknown field'}    | ${{ sides, seed: 'x' }}                                                                                     | ${/setupData: .*seed/}
    ${'a short hand'}        | ${{ sides, deal: { ...deckOrderDeal(), '0': ['poland'] } }}                                                 | ${/setupData\.deal\.0: must list exactly 5 card ids/}
    ${'a card dealt twice'}  | ${{ sides, deal: { ...deckOrderDeal(), '1': ['east-germany', 'israel', 'pakistan', 'japan', 'vietnam'] } }} | ${/'east-germany' is dealt twice/}
    ${'the starter dealt'}   | ${{ sides, deal: { ...deckOrderDeal(), '1': ['europe', 'israel', 'pakistan', 'japan', 'vietnam'] } }}       | ${/'europe' is not a strategy card/}
    ${'a broken deck'}       | ${{ sides, deck: { id: 'x' } }}                                                                             | ${/setupData\.deck: version: /}
  `('$problem', ({ setupData, error }) => {
    expect(() => parseSetupData(setupData)).toThrow(error);
    expect(IronCurtain.validateSetupData?.(setupData, 2)).toMatch(error);
  });

  test('defaults: the default deck, aftermath cap 3, standard scoring order', () => {
    const setup = parseSetupData({ sides });
    expect(setup.deck.id).toBe('reconstructed');
    expect(setup.variants).toEqual({ aftermathCap: 3, finalScoringOrder: 'standard' });
    expect(IronCurtain.validateSetupData?.({ sides }, 2)).toBeUndefined();
  });

  test('exactly two players', () => {
    expect(IronCurtain.validateSetupData?.({ sides }, 3)).toMatch(/exactly 2 players/);
  });
});

describe('the rules context stays out of the state', () => {
  test('a state names its deck by content hash and holds no card data or variants', () => {
    const state = newMatch({ variants: { aftermathCap: null, finalScoringOrder: 'polish' } });
    expect(state.deck).toEqual({
      id: DEFAULT_DECK.id,
      version: DEFAULT_DECK.version,
      hash: DEFAULT_DECK.hash,
    });
    const json = JSON.stringify(state);
    expect(json).not.toContain('eventText');
    expect(json).not.toContain('polish');
  });

  test('the deck hash depends on the content, not on how the file was written', () => {
    const file = deckFileOf(DEFAULT_DECK);
    const reordered = Object.fromEntries(Object.entries(file).reverse());
    expect(loadDeck(reordered).hash).toBe(DEFAULT_DECK.hash);
    expect(loadDeck({ ...file, version: `${file.version}b` }).hash).not.toBe(DEFAULT_DECK.hash);
    expect(DEFAULT_DECK.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
