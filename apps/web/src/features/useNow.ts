import { useEffect, useState } from 'react';

/** The current time, re-read every `everyMs` while `ticking`; countdowns render from it. */
export function useNow(ticking: boolean, everyMs = 250): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [ticking, everyMs]);
  return now;
}
