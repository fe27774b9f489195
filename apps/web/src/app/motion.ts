import { type RefObject, useCallback, useEffect, useRef, useSyncExternalStore } from 'react';

const media = (query: string) =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(query)
    : null;

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
