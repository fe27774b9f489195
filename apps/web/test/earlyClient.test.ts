import { afterEach, describe, expect, it } from 'vitest';
import { connectEarly, takeEarlyClient } from '../src/match/earlyClient.ts';
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
  it("opens a held seat's connection at once and hands it to that seat's page, once", () => {
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
    expect(takeEarlyClient(MATCH, '1', CREDENTIALS)).not.toBeNull();
    expect(takeEarlyClient(MATCH, '1', CREDENTIALS)).toBeNull();
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
