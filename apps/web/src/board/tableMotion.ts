/**
 * The table's motion: short steps with the Web Animations API (no library: the match page's first
 * download stays small). Every animation started here can be skipped by a tap or a key.
 */

/** The longest step the table takes. */
export const STEP_MS = 400;

const running = new Set<Animation>();

function track(animation: Animation): Animation {
  running.add(animation);
  const done = () => running.delete(animation);
  animation.addEventListener('finish', done);
  animation.addEventListener('cancel', done);
  return animation;
}

/** Motion driven by timers rather than animations (the marker's steps): told to jump to the end. */
const jumps = new Set<() => void>();

export function onSkip(jump: () => void): () => void {
  jumps.add(jump);
  return () => jumps.delete(jump);
}

/** Ends every animation of the table at once, at its last frame. */
export function skipMotion(): void {
  for (const animation of [...running]) animation.finish();
  for (const jump of jumps) jump();
}

/** A tap or a key anywhere skips what moves; returns the clean-up. */
export function skipOnInput(): () => void {
  const skip = () => {
    if (running.size > 0 || jumps.size > 0) skipMotion();
  };
  window.addEventListener('pointerdown', skip, true);
  window.addEventListener('keydown', skip, true);
  return () => {
    window.removeEventListener('pointerdown', skip, true);
    window.removeEventListener('keydown', skip, true);
  };
}

/** Where cards were last seen before they left for the table (a hand card's place on screen). */
const origins = new Map<string, DOMRect>();

export function rememberOrigin(cardId: string, element: Element | null | undefined): void {
  if (element) origins.set(cardId, element.getBoundingClientRect());
}

/**
 * Moves a card that just arrived from where it came from to its cell (FLIP: measure both places,
 * then animate the transform back to none). Without a remembered place it comes from `fallback`
 * (the opponent's side of the screen). Marks the element so a test can tell it moved.
 */
export function flyIn(element: HTMLElement, cardId: string, fallback: DOMRect): void {
  const from = origins.get(cardId) ?? fallback;
  origins.delete(cardId);
  if (typeof element.animate !== 'function') return;
  const to = element.getBoundingClientRect();
  if (to.width === 0 || from.width === 0) return;
  // The element sits inside the zoomed table: screen distances are divided by the zoom.
  const zoom = to.width / element.offsetWidth || 1;
  const dx = (from.left - to.left) / zoom;
  const dy = (from.top - to.top) / zoom;
  const scale = Math.min(2, from.width / to.width);
  element.dataset.motion = 'flown';
  track(
    element.animate(
      [
        {
          transform: `translate(${dx}px, ${dy}px) scale(${scale})`,
          transformOrigin: '0 0',
          zIndex: 5,
        },
        { transform: 'none', transformOrigin: '0 0', zIndex: 5 },
      ],
      { duration: STEP_MS, easing: 'cubic-bezier(0.2, 0.8, 0.3, 1)' },
    ),
  );
}

/** A short arrival for a part that changed in place (a cube, a marker step). */
export function popIn(element: Element, delay: number): void {
  if (typeof element.animate !== 'function') return;
  track(
    element.animate(
      [
        { transform: 'translateY(-10px) scale(1.6)', opacity: 0 },
        { transform: 'none', opacity: 1 },
      ],
      { duration: 250, delay, easing: 'ease-out', fill: 'backwards' },
    ),
  );
}

/** A part leaving: it rises and fades, then `done` removes it. */
export function popOut(element: Element, delay: number, done: () => void): void {
  if (typeof element.animate !== 'function') {
    done();
    return;
  }
  const animation = track(
    element.animate(
      [
        { transform: 'none', opacity: 1 },
        { transform: 'translateY(-12px) scale(0.6)', opacity: 0 },
      ],
      { duration: 250, delay, easing: 'ease-in', fill: 'forwards' },
    ),
  );
  animation.addEventListener('finish', done);
}
