import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReducedMotion } from '../app/motion.ts';
import { type Pointing, pointedElement } from './tutorialScript.ts';

interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

/** How often the ring looks for its target again: often enough to follow a scroll or a flying card. */
const FOLLOW_MS = 50;

const same = (a: Box | null, b: Box | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.top === b.top &&
    a.left === b.left &&
    a.width === b.width &&
    a.height === b.height);

/**
 * A ring over the card, cell or button the hint talks about, following it as the page scrolls,
 * zooms or changes (a card flying in, a draft growing). It takes no clicks: the thing under it does.
 */
export function CoachPointer({ points }: { points: Pointing[] }) {
  const { t } = useTranslation();
  const [box, setBox] = useState<Box | null>(null);
  const [at, setAt] = useState<string | null>(null);
  const reduced = useReducedMotion();
  useEffect(() => {
    let frame = 0;
    let shown: Element | null = null;
    const follow = () => {
      const found = pointedElement(points);
      // Each new thing pointed at comes into view once; the player may scroll away afterwards.
      if (found && found !== shown) {
        found.scrollIntoView?.({ block: 'nearest', behavior: reduced ? 'auto' : 'smooth' });
      }
      shown = found;
      const r = found?.getBoundingClientRect();
      const next =
        r && r.width > 0 ? { top: r.top, left: r.left, width: r.width, height: r.height } : null;
      setBox((b) => (same(b, next) ? b : next));
      setAt(
        found?.getAttribute('data-card') ??
          found?.getAttribute('data-cell') ??
          found?.tagName.toLowerCase() ??
          null,
      );
      frame = window.setTimeout(follow, FOLLOW_MS);
    };
    follow();
    return () => window.clearTimeout(frame);
  }, [points, reduced]);
  if (!box) return null;
  return (
    <div
      className="coach-ring"
      data-coach-at={at ?? ''}
      aria-hidden="true"
      style={{
        top: box.top - 6,
        left: box.left - 6,
        width: box.width + 12,
        height: box.height + 12,
      }}
    >
      <span className="coach-ring-label">{t('coach.pointer')}</span>
    </div>
  );
}
