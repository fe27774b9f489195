import { type RefObject, useEffect, useRef, useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

const media = () =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(QUERY)
    : null;

function subscribe(onChange: () => void): () => void {
  const list = media();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

/** True when the player asked the system for less motion: nothing then moves by itself. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => media()?.matches ?? false,
    () => false,
  );
}

/**
 * Scrolls the element to the top of the view when it appears: news the player must not miss
 * (the end of the match) while they look at the hand or the bottom of the table.
 */
export function useBringIntoView<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T>(null);
  const reduced = useReducedMotion();
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the element appears
  useEffect(() => {
    ref.current?.scrollIntoView?.({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
  }, []);
  return ref;
}
