import { type RefObject, useCallback, useEffect, useRef, useSyncExternalStore } from 'react';

/**
 * One MediaQueryList per query, kept: `useSyncExternalStore` reads the snapshot on every render,
 * and asking `matchMedia` anew each time evaluates the query again (a spectator's table renders
 * with every move). Kept per `matchMedia` function, so a replaced one (a test's) is asked afresh.
 */
const lists = new WeakMap<typeof window.matchMedia, Map<string, MediaQueryList>>();
const media = (query: string): MediaQueryList | null => {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return null;
  let known = lists.get(window.matchMedia);
  if (!known) {
    known = new Map();
    lists.set(window.matchMedia, known);
  }
  let list = known.get(query);
  if (!list) {
    list = window.matchMedia(query);
    known.set(query, list);
  }
  return list;
};

/** Whether a media query matches now, followed as it changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = media(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => media(query)?.matches ?? false,
    () => false,
  );
}

/** True when the player asked the system for less motion: nothing then moves by itself. */
export function useReducedMotion(): boolean {
  return useMediaQuery('(prefers-reduced-motion: reduce)');
}

/**
 * Scrolls the element to the top of the view when it appears, and again whenever `news`
 * changes: news the player must not miss (the end of the match, then its winner) while they
 * look at the hand, the bottom of the table or the end of a box that scrolls.
 */
export function useBringIntoView<T extends HTMLElement>(news?: unknown): RefObject<T | null> {
  const ref = useRef<T>(null);
  const reduced = useReducedMotion();
  // biome-ignore lint/correctness/useExhaustiveDependencies: when it appears and at each news
  useEffect(() => {
    ref.current?.scrollIntoView?.({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
  }, [news]);
  return ref;
}
