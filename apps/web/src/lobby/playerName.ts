const STORAGE_KEY = 'iron-curtain:name';

/** The name this browser played under last, so the home page's one click needs no typing. */
export function rememberedName(storage: Storage = localStorage): string | null {
  try {
    return storage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function rememberName(name: string, storage: Storage = localStorage): void {
  try {
    storage.setItem(STORAGE_KEY, name);
  } catch {
    // Storage may be blocked (private mode): the name is asked again next time.
  }
}

/**
 * Who takes a seat from this page: the signed-in account (the server seats it under the
 * account's name, so the request sends none) or a guest, under the name typed.
 */
export type Seating = { account: string } | { guest: string };

/** A seat about to be asked for: the name it will bear, and the request's `name` (a guest's only). */
export interface Sitter {
  name: string;
  request: { name?: string };
}

/** The sitter a seating comes to; null when a guest typed no name. */
export function sitterOf(seating: Seating): Sitter | null {
  if ('account' in seating) return { name: seating.account, request: {} };
  const name = seating.guest.trim();
  return name === '' ? null : { name, request: { name } };
}

/** A seat was granted: a guest's name is remembered for next time (an account's needs none). */
export function seated(sitter: Sitter): void {
  if (sitter.request.name !== undefined) rememberName(sitter.request.name);
}
