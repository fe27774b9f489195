// First, as in main.tsx: before zod is loaded.
import '../src/no-eval.ts';
import { describe, expect, it } from 'vitest';
import { config, z } from 'zod/mini';

describe('no-eval', () => {
  it('turns off the eval probe in the zod the pages load, without importing zod', () => {
    expect(config().jitless).toBe(true);
    const seen: string[] = [];
    const original = globalThis.Function;
    globalThis.Function = new Proxy(original, {
      construct(target, args) {
        seen.push(String(args.at(-1)));
        return Reflect.construct(target, args);
      },
      apply(target, self, args) {
        seen.push(String(args.at(-1)));
        return Reflect.apply(target, self, args);
      },
    });
    try {
      z.object({ a: z.string() }).parse({ a: 'x' });
    } finally {
      globalThis.Function = original;
    }
    expect(seen).toEqual([]);
  });
});
