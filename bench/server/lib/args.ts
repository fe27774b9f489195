import { parseArgs } from 'node:util';
import { pinClientsAway } from './cores.ts';
import { TARGET_KINDS, type TargetKind } from './targets.ts';

export interface CommonOptions {
  targets: TargetKind[];
  /** Write a V8 CPU profile of each server process (node --cpu-prof) to bench/server/out/prof. */
  cpuProf: boolean;
  /** Before each memory reading, every server runs a full garbage collection (see lib/collect-garbage.cjs). */
  collect: boolean;
  workers: number;
}

/**
 * Parses the flags every benchmark takes (--targets, --workers, --cpu-prof, --collect, --pin) plus its own
 * numeric options, each with a default, and its own lists (comma-separated words, each with a
 * default, in `lists`); a bad value stops the run with a clear message.
 */
export function parseOptions<K extends string, L extends string = never>(
  defaults: Record<K, number> & { workers: number },
  listDefaults: Record<L, string> = {} as Record<L, string>,
): CommonOptions & Record<K, number> & { lists: Record<L, string[]> } {
  const numeric = Object.keys(defaults) as K[];
  const listed = Object.keys(listDefaults) as L[];
  const { values } = parseArgs({
    options: {
      targets: { type: 'string', default: TARGET_KINDS.join(',') },
      'cpu-prof': { type: 'boolean', default: false },
      collect: { type: 'boolean', default: false },
      pin: { type: 'boolean', default: false },
      ...Object.fromEntries(numeric.map((k) => [k, { type: 'string' as const }])),
      ...Object.fromEntries(
        listed.map((l) => [l, { type: 'string' as const, default: listDefaults[l] }]),
      ),
    },
  });
  const lists = {} as Record<L, string[]>;
  for (const l of listed) {
    lists[l] = String((values as Record<string, unknown>)[l])
      .split(',')
      .map((w) => w.trim())
      .filter((w) => w.length > 0);
  }
  const targets = String(values.targets)
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
  for (const t of targets) {
    if (!(TARGET_KINDS as readonly string[]).includes(t)) {
      fail(`--targets: unknown target '${t}' (known: ${TARGET_KINDS.join(', ')})`);
    }
  }
  const numbers = {} as Record<K, number>;
  for (const k of numeric) {
    const raw = (values as Record<string, unknown>)[k];
    const n = raw === undefined ? defaults[k] : Number(raw);
    if (!Number.isFinite(n) || n <= 0) fail(`--${k}: expected a positive number, got '${raw}'`);
    numbers[k] = n;
  }
  if (values.pin) pinClientsAway();
  return {
    ...numbers,
    lists,
    targets: targets as TargetKind[],
    cpuProf: Boolean(values['cpu-prof']),
    collect: Boolean(values.collect),
    workers: Math.max(1, Math.floor((numbers as { workers?: number }).workers ?? defaults.workers)),
  };
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}
