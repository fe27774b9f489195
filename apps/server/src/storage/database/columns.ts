/** A row as both backends read it: JSON columns arrive as text (SQLite) or parsed (Postgres `json` columns, which node-pg parses). */
export type Row = Record<string, unknown>;

export const json = <T>(value: unknown): T =>
  (typeof value === 'string' ? JSON.parse(value) : value) as T;
export const text = (value: unknown): string => String(value);
/** A boolean column: 0/1 in SQLite, a boolean in Postgres. */
export const truthy = (value: unknown): boolean => value === true || Number(value) === 1;
export const iso = (value: unknown): string =>
  value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();

/** A JSON column's value as both backends write it: text, or SQL NULL for an absent value. */
export const jsonOrNull = (value: unknown): string | null =>
  value == null ? null : JSON.stringify(value);
