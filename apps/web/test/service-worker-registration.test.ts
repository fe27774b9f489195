import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The module afresh (its table promise is per page), in a browser with service workers. */
async function freshPage() {
  vi.resetModules();
  vi.stubEnv('PROD', true);
  const registered: string[] = [];
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      register: async (url: string) => {
        registered.push(url);
        return {};
      },
    },
  });
  const module = await import('../src/app/serviceWorker.ts');
  return { registered, ...module };
}

/** Lets the registration's promises run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout'], shouldAdvanceTime: true });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('the service worker’s registration', () => {
  it('registers at load on a page other than a live table, with no opt-in to notifications', async () => {
    const page = await freshPage();
    page.registerServiceWorkerAtLoad({ afterTable: false });
    await settle();
    expect(page.registered).toEqual(['/sw.js']);
  });

  it('on a live table, waits for the board, so keeping the shell does not hold the board back', async () => {
    const page = await freshPage();
    page.registerServiceWorkerAtLoad({ afterTable: true });
    await settle();
    expect(page.registered).toEqual([]);
    page.liveTableShown();
    await settle();
    expect(page.registered).toEqual(['/sw.js']);
  });

  it('on a live table that never shows its board, registers all the same in the end', async () => {
    const page = await freshPage();
    page.registerServiceWorkerAtLoad({ afterTable: true });
    await settle();
    expect(page.registered).toEqual([]);
    await vi.advanceTimersByTimeAsync(30_000);
    await settle();
    expect(page.registered).toEqual(['/sw.js']);
  });

  it('registers nothing where the browser has no service workers', async () => {
    const page = await freshPage();
    Reflect.deleteProperty(navigator, 'serviceWorker');
    expect(() => page.registerServiceWorkerAtLoad({ afterTable: false })).not.toThrow();
    await settle();
    expect(page.registered).toEqual([]);
  });
});
