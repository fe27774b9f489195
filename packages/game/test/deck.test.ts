// biome-ignore-all lint/suspicious/noExplicitAny: these tests break deck files on purpose, outside what the types allow.
import { describe, expect, test } from 'vitest';
import version1 from '../src/deck/reconstructed-1.json' with { type: 'json' };
import {
  BUILT_IN_DECKS,
  builtInDeck,
  DEFAULT_DECK,
  DeckError,
  deckFileOf,
  isReconstructed,
  loadDeck,
  parseEffect,
} from '../src/index.ts';

const deckFile = () => structuredClone(deckFileOf(DEFAULT_DECK)) as Record<string, any>;

function deckErrors(mutate: (file: Record<string, any>) => void): string[] {
  const file = deckFile();
  mutate(file);
  try {
    loadDeck(file);
  } catch (error) {
    if (error instanceof DeckError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  throw new Error('the deck loaded');
}

describe('version 1, the deck of deck.md', () => {
  test('has 18 strategy cards, 10 US and 8 USSR, and regions of 6/2/3/4/2/2', () => {
    const deck = loadDeck(version1);
    const strategy = deck.cards.filter((c) => c.id !== deck.starter);
    expect(strategy).toHaveLength(18);
    expect(strategy.filter((c) => c.flag === 'US')).toHaveLength(10);
    expect(strategy.filter((c) => c.flag === 'USSR')).toHaveLength(8);
    expect(deck.regions.map((r) => [r.name, r.size, r.bonus])).toEqual([
      ['Europe', 6, 3],
      ['Middle East', 2, 2],
      ['Asia', 3, 2],
      ['Africa', 4, 1],
      ['South America', 2, 2],
      ['Central America', 2, 2],
    ]);
  });

  test('fits the rulebook examples: Vietnam USSR 4, Israel US 3, Cuba USSR 2, a USSR card of 1', () => {
    const card = (id: string) => DEFAULT_DECK.cards.find((c) => c.id === id);
    expect(card('vietnam')).toMatchObject({ flag: 'USSR', command: 4, region: 'asia' });
    expect(card('israel')).toMatchObject({ flag: 'US', command: 3 });
    expect(card('cuba')).toMatchObject({ flag: 'USSR', command: 2 });
    expect(DEFAULT_DECK.cards.some((c) => c.flag === 'USSR' && c.command === 1)).toBe(true);
  });

  test('says it is partly a reconstruction, field by field', () => {
    expect(isReconstructed(DEFAULT_DECK)).toBe(true);
    const eastGermany = DEFAULT_DECK.cards.find((c) => c.id === 'east-germany');
    expect(eastGermany?.status).toMatchObject({
      flag: 'confirmed',
      event: 'confirmed',
      command: 'reconstructed',
    });
  });
});

describe('built-in deck versions', () => {
  test('builtInDeck finds each version by its hash, and no other deck', () => {
    expect(BUILT_IN_DECKS.map((d) => d.version)).toEqual(['2', '1']);
    for (const deck of BUILT_IN_DECKS) expect(builtInDeck(deck.hash)).toBe(deck);
    expect(new Set(BUILT_IN_DECKS.map((d) => d.hash)).size).toBe(BUILT_IN_DECKS.length);
    expect(builtInDeck('0'.repeat(64))).toBeUndefined();
  });

  test('the default deck is the newest version', () => {
    expect(BUILT_IN_DECKS[0]).toBe(DEFAULT_DECK);
    expect(DEFAULT_DECK.version).toBe('2');
  });

  test('version 1 stays as it was published: the hash its matches and records name still finds it', () => {
    // Stored matches and exported records name their deck by this hash: editing version 1's
    // file would orphan every one of them.
    const hash = '3ed69bc8e89185600dd0264b416ee92e77f3acf2ec7e7034e0842881fe5c0e88';
    const deck = builtInDeck(hash);
    expect(deck?.version).toBe('1');
    expect(deckFileOf(deck as NonNullable<typeof deck>)).toEqual(version1);
  });

  test.each(BUILT_IN_DECKS.map((d) => [d.version, d]))(
    'version %s changes no confirmed field of version 1',
    (_, deck) => {
      const first = loadDeck(version1);
      expect(deck.regions.map((r) => [r.id, r.status])).toEqual(
        first.regions.map((r) => [r.id, r.status]),
      );
      expect(deck.cards.map((c) => [c.id, c.status])).toEqual(
        first.cards.map((c) => [c.id, c.status]),
      );
      const confirmed = <T extends { status: Record<string, string> }>(item: T) =>
        Object.fromEntries(
          Object.entries(item.status)
            .filter(([, status]) => status === 'confirmed')
            .map(([field]) => [field, item[field as keyof T]]),
        );
      expect(deck.regions.map(confirmed)).toEqual(first.regions.map(confirmed));
      expect(deck.cards.map(confirmed)).toEqual(first.cards.map(confirmed));
    },
  );

  test.each(BUILT_IN_DECKS.map((d) => [d.version, d]))(
    'version %s has 18 strategy cards, 10 US and 8 USSR, and is marked a reconstruction',
    (_, deck) => {
      const strategy = deck.cards.filter((c) => c.id !== deck.starter);
      expect(strategy.filter((c) => c.flag === 'US')).toHaveLength(10);
      expect(strategy.filter((c) => c.flag === 'USSR')).toHaveLength(8);
      expect(isReconstructed(deck)).toBe(true);
    },
  );
});

describe('loadDeck names the exact field and problem', () => {
  test.each`
    problem | mutate | error
    ${'a wrong region size'} | ${(f: any) => {
  f.regions[1].size = 3;
}} | ${/^regions\[1\]\.size: Middle East has size 3 but the deck has 2 cards/}
    ${'an unknown card in an event'} | ${(f: any) => {
  f.cards[7].event[0] = 'move irann';
}} | ${/^cards\[7\]\.event\[0\]: unknown card 'irann'/}
    ${'an unknown region in an event'} | ${(f: any) => {
  f.cards[2].event[0] = 'command 3 on region Oceania';
}} | ${/^cards\[2\]\.event\[0\]: unknown region 'Oceania'/}
    ${'a step that is not a step'} | ${(f: any) => {
  f.cards[1].event[0] = 'gain lots';
}} | ${/^cards\[1\]\.event\[0\]: 'gain lots' is not a step/}
    ${'a command value of 5'} | ${(f: any) => {
  f.cards[1].command = 5;
}} | ${/^cards\[1\]\.command: command value must be 1 to 4/}
    ${'a command value of 0'} | ${(f: any) => {
  f.cards[3].command = 0;
}} | ${/^cards\[3\]\.command: command value must be 1 to 4/}
    ${'a duplicate card id'} | ${(f: any) => {
  f.cards[2].id = 'east-germany';
}} | ${/^cards\[2\]\.id: duplicate card id 'east-germany'/}
    ${'an unknown region on a card'} | ${(f: any) => {
  f.cards[4].region = 'oceania';
}} | ${/^cards\[4\]\.region: unknown region 'oceania'/}
    ${'a strategy card without a flag'} | ${(f: any) => {
  f.cards[5].flag = null;
}} | ${/^cards\[5\]\.flag: a strategy card needs a flag/}
    ${'a flag on the starter'} | ${(f: any) => {
  f.cards[0].flag = 'US';
}} | ${/^cards\[0\]\.flag: the starter card has no flag/}
    ${'a missing field'} | ${(f: any) => {
  delete f.cards[6].status;
}} | ${/^cards\[6\]\.status: /}
    ${'a status that is neither'} | ${(f: any) => {
  f.regions[0].status.size = 'guessed';
}} | ${/^regions\[0\]\.status\.size: /}
  `('$problem', ({ mutate, error }) => {
    expect(deckErrors(mutate)).toContainEqual(expect.stringMatching(error));
  });

  test('counts that do not add up: a card removed', () => {
    const errors = deckErrors((f) => f.cards.pop());
    expect(errors).toContainEqual(
      expect.stringMatching(/^regions\[4\]\.size: South America has size 2 but the deck has 1/),
    );
    expect(errors).toContainEqual(
      expect.stringMatching(
        /^cards: a deck needs 18 strategy cards besides the starter \(has 17\)/,
      ),
    );
  });

  test('a corrected deck loads and its values are used', () => {
    const file = deckFile();
    file.id = 'owner-corrected';
    file.cards[1].command = 2;
    file.cards[1].status.command = 'confirmed';
    expect(loadDeck(file).cards[1]).toMatchObject({ id: 'east-germany', command: 2 });
  });
});

describe('the effect language', () => {
  const names = {
    card: (n: string) => (['iran', 'israel', 'cuba', 'pakistan'].includes(n) ? n : undefined),
    region: (n: string) => (n === 'Europe' ? 'europe' : undefined),
  };
  test.each`
    text                                                | step
    ${'gain 1'}                                         | ${{ op: 'gain', amount: 1 }}
    ${'command 3 on region Europe'}                     | ${{ op: 'command', amount: 3, targets: { kind: 'region', region: 'europe' } }}
    ${'infiltrate 2 on any card'}                       | ${{ op: 'infiltrate', amount: 2, targets: { kind: 'any' }, maxPerCard: null }}
    ${'infiltrate 2 on region Europe max 1 per card'}   | ${{ op: 'infiltrate', amount: 2, targets: { kind: 'region', region: 'europe' }, maxPerCard: 1 }}
    ${'infiltrate 2 on cards adjacent to pakistan'}     | ${{ op: 'infiltrate', amount: 2, targets: { kind: 'adjacent', card: 'pakistan', includeSelf: false }, maxPerCard: null }}
    ${'infiltrate 2 on cuba or cards adjacent to cuba'} | ${{ op: 'infiltrate', amount: 2, targets: { kind: 'adjacent', card: 'cuba', includeSelf: true }, maxPerCard: null }}
    ${'infiltrate 1 on cards israel, iran'}             | ${{ op: 'infiltrate', amount: 1, targets: { kind: 'cards', cards: ['israel', 'iran'] }, maxPerCard: null }}
    ${'remove 2 on card iran'}                          | ${{ op: 'remove', amount: 2, targets: { kind: 'cards', cards: ['iran'] } }}
    ${'move iran'}                                      | ${{ op: 'move', card: 'iran' }}
  `('$text', ({ text, step }) => {
    expect(parseEffect(text, names)).toEqual(step);
  });
});
