import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../src/ops/config.ts';

const REPO = path.resolve(import.meta.dirname, '../../..');
const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
const compose = fs.readFileSync(path.join(REPO, 'docker-compose.yml'), 'utf8');

/** Defaults the server fills in outside the schema (main.ts finds the client beside itself). */
const DEFAULTS_OUTSIDE_SCHEMA: Record<string, string> = { WEB_DIST: 'apps/web/dist' };

interface Row {
  name: string;
  default: string;
  what: string;
}

/** The rows of the table under "## Settings" in the top-level README. */
function settingsTable(): Row[] {
  const section = readme.split(/^## Settings$/m)[1]?.split(/^## /m)[0];
  if (!section) throw new Error('the README has no "## Settings" section');
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [name, value, what] = line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim());
      return { name: (name ?? '').replaceAll('`', ''), default: value ?? '', what: what ?? '' };
    });
}

/** Variables the compose file reads from its own environment, with their defaults. */
const composeVariables = new Map(
  [...compose.matchAll(/\$\{(\w+):-([^}]*)\}/g)].map((m) => [m[1] as string, m[2] as string]),
);

/** How the README writes a schema default. */
function written(value: unknown): string {
  if (value === undefined) return 'unset';
  if (Array.isArray(value) && value.length === 0) return 'none';
  return `\`${String(value)}\``;
}

describe('the README settings table', () => {
  const rows = settingsTable();
  const keys = Object.keys(envSchema.shape);

  it('documents every setting of the configuration schema, so a new one cannot go undocumented', () => {
    const documented = new Set(rows.map((r) => r.name));
    expect(keys.filter((key) => !documented.has(key))).toEqual([]);
  });

  it('lists nothing the server or the compose file does not read', () => {
    const known = new Set([...keys, ...composeVariables.keys()]);
    expect(rows.map((r) => r.name).filter((name) => !known.has(name))).toEqual([]);
    expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
  });

  it('gives each setting the default the schema (or the compose file) applies', () => {
    for (const row of rows) {
      const schema = envSchema.shape[row.name as keyof typeof envSchema.shape];
      const expected = schema
        ? row.name in DEFAULTS_OUTSIDE_SCHEMA
          ? `\`${DEFAULTS_OUTSIDE_SCHEMA[row.name]}\``
          : written(schema.parse(undefined))
        : `\`${composeVariables.get(row.name)}\``;
      expect({ name: row.name, default: row.default }).toEqual({
        name: row.name,
        default: expected,
      });
    }
  });

  it('marks exactly the settings the compose file passes through', () => {
    const marked = rows.filter((r) => r.what.startsWith('*compose*')).map((r) => r.name);
    const passed = keys.filter((key) => composeVariables.has(key));
    expect(marked.sort()).toEqual(passed.sort());
  });
});
