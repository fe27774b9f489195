import type { CardId, EffectStep, RegionId, TargetSet } from '../types.ts';

/**
 * The effect language of deck.md, parsed from the text a deck file holds.
 * Card and region names are resolved by the caller's lookups so that a typo
 * fails at load time, never during a match.
 */
export interface EffectNames {
  card(name: string): CardId | undefined;
  region(name: string): RegionId | undefined;
}

export class EffectSyntaxError extends Error {}

const COUNT = '(\\d+)';

function parseCard(text: string, names: EffectNames): CardId {
  const id = names.card(text.trim());
  if (!id) throw new EffectSyntaxError(`unknown card '${text.trim()}'`);
  return id;
}

function parseTargets(text: string, names: EffectNames): TargetSet {
  const t = text.trim();
  if (t === 'any card') return { kind: 'any' };
  let m = /^region (.+)$/.exec(t);
  if (m?.[1]) {
    const region = names.region(m[1].trim());
    if (!region) throw new EffectSyntaxError(`unknown region '${m[1].trim()}'`);
    return { kind: 'region', region };
  }
  m = /^cards adjacent to (.+)$/.exec(t);
  if (m?.[1]) return { kind: 'adjacent', card: parseCard(m[1], names), includeSelf: false };
  m = /^(.+) or cards adjacent to (.+)$/.exec(t);
  if (m?.[1] && m[2]) {
    const card = parseCard(m[1], names);
    if (parseCard(m[2], names) !== card) {
      throw new EffectSyntaxError(`'${t}' must name the same card twice`);
    }
    return { kind: 'adjacent', card, includeSelf: true };
  }
  m = /^cards? (.+)$/.exec(t);
  if (m?.[1]) return { kind: 'cards', cards: m[1].split(',').map((c) => parseCard(c, names)) };
  throw new EffectSyntaxError(`unknown target set '${t}'`);
}

function positive(text: string | undefined, what: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new EffectSyntaxError(`${what} must be at least 1`);
  return n;
}

export function parseEffect(text: string, names: EffectNames): EffectStep {
  const t = text.trim().replace(/\s+/g, ' ');
  let m = new RegExp(`^gain ${COUNT}$`).exec(t);
  if (m) return { op: 'gain', amount: positive(m[1], 'gain') };
  m = new RegExp(`^infiltrate ${COUNT} on (.+?)(?: max ${COUNT} per card)?$`).exec(t);
  if (m?.[2]) {
    return {
      op: 'infiltrate',
      amount: positive(m[1], 'infiltrate'),
      targets: parseTargets(m[2], names),
      maxPerCard: m[3] === undefined ? null : positive(m[3], 'max per card'),
    };
  }
  m = new RegExp(`^(command|remove) ${COUNT} on (.+)$`).exec(t);
  if (m?.[3]) {
    const op = m[1] === 'command' ? 'command' : 'remove';
    return { op, amount: positive(m[2], op), targets: parseTargets(m[3], names) };
  }
  m = /^move (.+)$/.exec(t);
  if (m?.[1]) return { op: 'move', card: parseCard(m[1], names) };
  throw new EffectSyntaxError(
    `'${t}' is not a step of the effect language (gain, command, infiltrate, remove, move)`,
  );
}
