import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { z } from 'zod';
import type { Deck } from './deck.ts';
import { type EffectNames, EffectSyntaxError, parseEffect } from './effects.ts';

/** Strategy cards a deck must have: two hands of 5 and a reserve of 8. */
const STRATEGY_CARD_COUNT = 18;

const status = z.enum(['confirmed', 'reconstructed']);

const id = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase words joined by dashes');

const regionFile = z.strictObject({
  id,
  name: z.string().min(1),
  size: z.number().int().min(1),
  bonus: z.number().int().min(0),
  status: z.strictObject({ size: status, bonus: status }),
});

const cardFile = z.strictObject({
  id,
  name: z.string().min(1),
  region: id,
  flag: z.enum(['US', 'USSR']).nullable(),
  command: z
    .number()
    .int()
    .min(1, 'command value must be 1 to 4')
    .max(4, 'command value must be 1 to 4')
    .nullable(),
  event: z.array(z.string()),
  status: z.strictObject({
    name: status,
    region: status,
    flag: status,
    command: status,
    event: status,
  }),
});

/** The deck file format (JSON). Events are written in the effect language of deck.md. */
export const deckFileSchema = z.strictObject({
  id,
  version: z.string().min(1),
  name: z.string().min(1),
  regions: z.array(regionFile).min(1),
  starter: id,
  cards: z.array(cardFile).min(1),
});
export type DeckFile = z.infer<typeof deckFileSchema>;

export class DeckError extends Error {
  constructor(readonly issues: { path: string; message: string }[]) {
    super(`Invalid deck:\n${issues.map((i) => `- ${i.path}: ${i.message}`).join('\n')}`);
    this.name = 'DeckError';
  }
}

function pathText(path: readonly PropertyKey[]): string {
  return (
    path.reduce<string>(
      (text, key) =>
        typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key),
      '',
    ) || '(deck)'
  );
}

function effectNames(file: DeckFile): EffectNames {
  const cards = new Set(file.cards.map((c) => c.id));
  return {
    card: (name) => (cards.has(name) ? name : undefined),
    region: (name) =>
      file.regions.find((r) => r.id === name || r.name.toLowerCase() === name.toLowerCase())?.id,
  };
}

/** Cross-field checks zod cannot express alone; each problem names its field. */
function checkDeck(
  file: DeckFile,
  issue: (path: (string | number)[], message: string) => void,
): void {
  const seen = new Map<string, number>();
  file.regions.forEach((r, i) => {
    if (seen.has(r.id)) issue(['regions', i, 'id'], `duplicate region id '${r.id}'`);
    seen.set(r.id, i);
  });
  const cardIndex = new Map<string, number>();
  file.cards.forEach((c, i) => {
    if (cardIndex.has(c.id)) issue(['cards', i, 'id'], `duplicate card id '${c.id}'`);
    cardIndex.set(c.id, i);
    if (!seen.has(c.region)) issue(['cards', i, 'region'], `unknown region '${c.region}'`);
    const isStarter = c.id === file.starter;
    if (isStarter) {
      if (c.flag !== null) issue(['cards', i, 'flag'], 'the starter card has no flag');
      if (c.command !== null)
        issue(['cards', i, 'command'], 'the starter card has no command value');
      if (c.event.length > 0) issue(['cards', i, 'event'], 'the starter card has no event');
    } else {
      if (c.flag === null) issue(['cards', i, 'flag'], 'a strategy card needs a flag (US or USSR)');
      if (c.command === null) issue(['cards', i, 'command'], 'command value must be 1 to 4');
    }
  });
  if (!cardIndex.has(file.starter)) issue(['starter'], `unknown card '${file.starter}'`);

  const names = effectNames(file);
  file.cards.forEach((c, i) => {
    c.event.forEach((text, j) => {
      try {
        parseEffect(text, names);
      } catch (error) {
        if (!(error instanceof EffectSyntaxError)) throw error;
        issue(['cards', i, 'event', j], error.message);
      }
    });
  });

  file.regions.forEach((r, i) => {
    const count = file.cards.filter((c) => c.region === r.id).length;
    if (count !== r.size) {
      issue(
        ['regions', i, 'size'],
        `${r.name} has size ${r.size} but the deck has ${count} cards in it`,
      );
    }
  });
  const strategy = file.cards.filter((c) => c.id !== file.starter).length;
  if (strategy !== STRATEGY_CARD_COUNT) {
    issue(
      ['cards'],
      `a deck needs ${STRATEGY_CARD_COUNT} strategy cards besides the starter (has ${strategy})`,
    );
  }
}

/** JSON with object keys sorted: the same deck always hashes the same, however it was written. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A deck file's identity: sha256 (hex) of its canonical JSON. */
const deckHash = (file: DeckFile): string => bytesToHex(sha256(utf8ToBytes(canonicalJson(file))));

/** The deck file a loaded deck came from (events as written, no parsed effects). */
export function deckFileOf(deck: Deck): DeckFile {
  return {
    id: deck.id,
    version: deck.version,
    name: deck.name,
    regions: deck.regions,
    starter: deck.starter,
    cards: deck.cards.map(({ eventText, effects: _, ...card }) => ({ ...card, event: eventText })),
  };
}

/** Validates a deck file (parsed JSON) and returns the deck, or throws a DeckError naming each bad field. */
export function loadDeck(json: unknown): Deck {
  const parsed = deckFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new DeckError(
      parsed.error.issues.map((i) => ({ path: pathText(i.path), message: i.message })),
    );
  }
  const file = parsed.data;
  const issues: { path: string; message: string }[] = [];
  checkDeck(file, (path, message) => issues.push({ path: pathText(path), message }));
  if (issues.length > 0) throw new DeckError(issues);

  const names = effectNames(file);
  return {
    hash: deckHash(file),
    id: file.id,
    version: file.version,
    name: file.name,
    regions: file.regions,
    starter: file.starter,
    cards: file.cards.map(({ event, ...card }) => ({
      ...card,
      eventText: event,
      effects: event.map((text) => parseEffect(text, names)),
    })),
  };
}
