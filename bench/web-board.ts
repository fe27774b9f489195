// What the time-to-board benchmarks share: a match with both seats taken, the seat handed to a
// page, and the moment the page shows its first table card.
import { parseInviteLink } from '@iron-curtain/protocol';
import type { Page } from 'playwright-core';
import { seatStorageKey } from '../apps/web/src/match/seatStore.ts';

/** Records, inside the page, when the first table card appears (window.__boardShownAt). */
export const WATCH_BOARD = `
  new MutationObserver((_, observer) => {
    if (document.querySelector('section[aria-label="The table"] [data-card]')) {
      window.__boardShownAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
`;

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/**
 * A match on the server at `url` with both seats taken; `holdSeat` is a page script that
 * gives the page the second seat, as the browser that joined would hold it.
 */
export async function seatedMatch(url: string): Promise<{ matchID: string; holdSeat: string }> {
  const created = await post(`${url}/api/matches`, { name: 'Ann', side: 'US' });
  const matchID = created.matchID as string;
  const link = new URL((created.links as { invite: string }).invite, url);
  const invite = parseInviteLink(link.pathname, link.hash)?.invite;
  const joined = await post(`${url}/api/matches/${matchID}/join`, { name: 'Boris', invite });
  const seat = JSON.stringify({ ...joined, name: 'Boris' });
  return {
    matchID,
    holdSeat: `localStorage.setItem(${JSON.stringify(seatStorageKey(matchID))}, ${JSON.stringify(seat)});`,
  };
}

/** Waits for the page's first table card; milliseconds from navigation to it. */
export async function boardShownAt(page: Page): Promise<number> {
  const shown = () => (window as unknown as { __boardShownAt?: number }).__boardShownAt;
  await page.waitForFunction(shown, null, { timeout: 15_000 });
  return (await page.evaluate(shown)) as number;
}
