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
