import { iso, type Row, text } from '../database/columns.ts';
import type { HandoverTry } from './handover-store.ts';

/** A handover row as a try found it, `counted` or not. */
export function handoverTry(row: Row, counted: boolean): HandoverTry {
  return {
    sealed: text(row.sealed),
    expiresAt: iso(row.expires_at),
    usedAt: row.used_at == null ? null : iso(row.used_at),
    tries: Number(row.tries),
    counted,
  };
}
