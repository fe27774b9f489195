/** A small seeded PRNG (sfc32): bots never call Math.random, so every game replays from its seed. */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  /** Shuffles in place (Fisher-Yates) and returns the same array. */
  shuffle<T>(items: T[]): T[];
  /** A 32-bit seed for a child generator, so sub-tasks draw independent streams. */
  fork(): number;
}

/** Mixes a number or string into a 32-bit seed (FNV-1a over the text, then a murmur finaliser). */
export function hashSeed(seed: number | string): number {
  const text = typeof seed === 'number' ? `n:${seed}` : `s:${seed}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function createRng(seed: number | string): Rng {
  let a = hashSeed(seed);
  let b = hashSeed(a ^ 0x9e3779b9);
  let c = hashSeed(b ^ 0x7f4a7c15);
  let d = 1;
  const next32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // The first outputs of sfc32 are poorly mixed; discard them.
  for (let i = 0; i < 12; i++) next32();
  const rng: Rng = {
    next: () => next32() / 4294967296,
    int: (n) => Math.floor((next32() / 4294967296) * n),
    pick: (items) => {
      if (items.length === 0) throw new Error('cannot pick from an empty list');
      return items[rng.int(items.length)] as (typeof items)[number];
    },
    shuffle: (items) => {
      for (let i = items.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        [items[i], items[j]] = [
          items[j] as (typeof items)[number],
          items[i] as (typeof items)[number],
        ];
      }
      return items;
    },
    fork: () => next32(),
  };
  return rng;
}
