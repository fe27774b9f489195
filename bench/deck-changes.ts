// Balance experiments: a built-in deck with reconstructed fields changed from the command line.
// A confirmed field cannot be changed (shared/rules/deck.md says which are confirmed).
import { BUILT_IN_DECKS, type DeckFile, deckFileOf } from '@iron-curtain/game';

type Entry = { id: string; status: Record<string, string> } & Record<string, unknown>;

/** A built-in version of the default deck as its file holds it, to edit. */
export function builtInFile(version: string): DeckFile {
  const deck = BUILT_IN_DECKS.find((d) => d.version === version);
  if (!deck) {
    const versions = BUILT_IN_DECKS.map((d) => d.version).join(', ');
    throw new Error(`no built-in deck version '${version}' (there are ${versions})`);
  }
  return structuredClone(deckFileOf(deck));
}

/**
 * The built-in deck `version`'s file with each change applied, each written
 * `<card|region>:<id>.<field>=<JSON>`, e.g. `region:middle-east.bonus=3` or
 * `card:hungary.event=["remove 1 on region Europe"]`. Throws on a confirmed field or a bad change.
 */
export function changedDeck(changes: readonly string[], version: string): unknown {
  const deck = builtInFile(version) as unknown as { regions: Entry[]; cards: Entry[] };
  for (const change of changes) {
    const m = /^(card|region):([a-z-]+)\.([a-z]+)=(.+)$/.exec(change);
    if (!m) throw new Error(`--set '${change}': expected <card|region>:<id>.<field>=<JSON>`);
    const [, kind, id, field, json] = m as unknown as [string, string, string, string, string];
    const entry = (kind === 'card' ? deck.cards : deck.regions).find((e) => e.id === id);
    if (!entry) throw new Error(`--set '${change}': no ${kind} '${id}' in deck version ${version}`);
    const status = entry.status[field];
    if (status === undefined)
      throw new Error(`--set '${change}': ${kind} field '${field}' has no status`);
    if (status === 'confirmed') throw new Error(`--set '${change}': ${id}.${field} is confirmed`);
    try {
      entry[field] = JSON.parse(json);
    } catch {
      throw new Error(`--set '${change}': the value is not JSON`);
    }
  }
  return deck;
}
