import type { Region } from '@iron-curtain/game';

/**
 * Colour and symbol of a region: the colour is never the only cue, the symbol and name go with it.
 * Known regions take their colour from a custom property of table.css (a theme may override it);
 * every colour holds white text at a contrast of at least 4.5:1.
 */
export interface RegionStyle {
  colour: string;
  symbol: string;
}

const KNOWN: Record<string, string> = {
  europe: '★',
  'middle-east': '◆',
  asia: '●',
  africa: '▲',
  'south-america': '■',
  'central-america': '✚',
};

const SPARE = ['#a33b6b', '#4d5b16', '#3b5ba3', '#8c4a0f'];
const SPARE_SYMBOLS = ['⬟', '⬢', '✦', '◐'];

/** Decks supplied by owners may name other regions: they get a stable spare style. */
export function regionStyle(region: Pick<Region, 'id'>): RegionStyle {
  const known = KNOWN[region.id];
  if (known) return { colour: `var(--region-${region.id})`, symbol: known };
  let hash = 0;
  for (const ch of region.id) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return {
    colour: SPARE[hash % SPARE.length] as string,
    symbol: SPARE_SYMBOLS[hash % SPARE_SYMBOLS.length] as string,
  };
}
