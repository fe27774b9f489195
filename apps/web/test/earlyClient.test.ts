import { afterEach, describe, expect, it } from 'vitest';
import { connectEarly, earlyClientMounted, takeEarlyClient } from '../src/match/earlyClient.ts';
import { seatStorageKey } from '../src/match/seatStore.ts';
import { FakeTransport } from './fakeTransport.ts';

const MATCH = 'qJrhNjlWQFWvYgGX';
const CREDENTIALS = 'c'.repeat(24);

function openEarly(pathname: string) {
  const transports: FakeTransport[] = [];
  connectEarly(pathname, '', () => {
    const transport = new FakeTransport();
    transports.push(transport);
    return transport;
  });
  return transports;
}

afterEach(() => localStorage.clear());

describe('the connection opened before the page renders', () => {
  it("opens a held seat's connection at once and hands it to that seat's page until the page mounts it", () => {
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
    const [transport] = openEarly(`/match/${MATCH}`);
    expect(transport?.opened).toBe(1);
    const early = takeEarlyClient(MATCH, '1', CREDENTIALS);
    expect(early).not.toBeNull();
    if (!early) return;
    earlyClientMounted(early);
    expect(takeEarlyClient(MATCH, '1', CREDENTIALS)).toBeNull();
  });

  it('leaves no connection open with nobody holding it when React renders the page twice before mounting it', () => {
    const [transport] = openEarly(`/watch/${MATCH}`);
    // The first render is thrown away; the second is the one mounted.
    const first = takeEarlyClient(MATCH, null, undefined);
    const second = takeEarlyClient(MATCH, null, undefined);
    expect(second).toBe(first);
    if (!second) return;
    earlyClientMounted(second);
    second.stop();
    expect(transport?.opened).toBe(1);
    expect(transport?.closed).toBe(1);
  });

  it("opens a spectator's on the watch page, and none for a match page without a seat", () => {
    expect(openEarly(`/match/${MATCH}`)).toEqual([]);
    expect(openEarly('/')).toEqual([]);
    const [transport] = openEarly(`/watch/${MATCH}`);
    expect(transport?.opened).toBe(1);
    expect(takeEarlyClient(MATCH, null, undefined)).not.toBeNull();
  });

  it('closes it when the page shows another seat', () => {
    const [transport] = openEarly(`/watch/${MATCH}`);
    expect(takeEarlyClient(MATCH, '0', CREDENTIALS)).toBeNull();
    expect(transport?.closed).toBe(1);
  });
});
