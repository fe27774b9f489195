import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seatStorageKey } from '../src/match/seatStore.ts';
import { FakeTransport } from './fakeTransport.ts';

const MATCH = 'qJrhNjlWQFWvYgGX';
const CREDENTIALS = 'c'.repeat(24);

/** The module as a page load finds it: nothing opened, nothing asked yet. */
async function freshPage() {
  const early = await import('../src/match/earlyClient.ts');
  const transports: FakeTransport[] = [];
  const openEarly = (pathname: string) =>
    early.connectEarly(pathname, '', () => {
      const transport = new FakeTransport();
      transports.push(transport);
      return transport;
    });
  return { ...early, openEarly, transports };
}

beforeEach(() => vi.resetModules());
afterEach(() => localStorage.clear());

describe('the connection opened before the page renders', () => {
  it("opens a held seat's connection at once and hands it to that seat's page until the page mounts it", async () => {
    localStorage.setItem(
      seatStorageKey(MATCH),
      JSON.stringify({
        matchID: MATCH,
        seat: '1',
        side: 'US',
        credentials: CREDENTIALS,
        name: 'Boris',
      }),
    );
    const page = await freshPage();
    page.openEarly(`/match/${MATCH}`);
    expect(page.transports.map((t) => t.opened)).toEqual([1]);
    const early = page.takeEarlyClient(MATCH, '1', CREDENTIALS);
    expect(early).not.toBeNull();
    if (!early) return;
    page.earlyClientMounted(early);
    expect(page.takeEarlyClient(MATCH, '1', CREDENTIALS)).toBeNull();
  });

  it("opens a spectator's on the watch page, and none for a match page without a seat", async () => {
    const page = await freshPage();
    page.openEarly(`/match/${MATCH}`);
    page.openEarly('/');
    expect(page.transports).toEqual([]);
    page.openEarly(`/watch/${MATCH}`);
    expect(page.transports.map((t) => t.opened)).toEqual([1]);
    expect(page.takeEarlyClient(MATCH, null, undefined)).not.toBeNull();
  });

  it('closes it when the page shows another seat', async () => {
    const page = await freshPage();
    page.openEarly(`/watch/${MATCH}`);
    expect(page.takeEarlyClient(MATCH, '0', CREDENTIALS)).toBeNull();
    expect(page.transports.map((t) => t.closed)).toEqual([1]);
  });

  it('leaves no connection open with nobody holding it when React renders the page twice before mounting it', async () => {
    const page = await freshPage();
    page.openEarly(`/watch/${MATCH}`);
    // The first render is thrown away; the second is the one mounted.
    const first = page.takeEarlyClient(MATCH, null, undefined);
    const second = page.takeEarlyClient(MATCH, null, undefined);
    expect(second).toBe(first);
    if (!second) return;
    page.earlyClientMounted(second);
    second.stop();
    expect(page.transports.map((t) => [t.opened, t.closed])).toEqual([[1, 1]]);
  });

  it('opens none once the page, rendered first, has opened its own', async () => {
    const page = await freshPage();
    expect(page.takeEarlyClient(MATCH, null, undefined)).toBeNull();
    page.openEarly(`/watch/${MATCH}`);
    expect(page.transports).toEqual([]);
  });
});
