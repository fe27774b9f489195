import { type MouseEvent, type ReactNode, useSyncExternalStore } from 'react';
import { parseRoute, type Route } from './routes.ts';

// A tiny history router: the client has four pages, a routing library would cost more than it saves.
const NAVIGATE = 'iron-curtain:navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATE, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATE, onChange);
  };
}

const currentHref = () => window.location.href;

export function navigate(path: string, { replace = false } = {}): void {
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  window.dispatchEvent(new Event(NAVIGATE));
  window.scrollTo?.(0, 0);
}

export function useRoute(): Route {
  const href = useSyncExternalStore(subscribe, currentHref);
  const url = new URL(href);
  return parseRoute(url.pathname, url.hash);
}

export function Link({
  to,
  children,
  className,
}: {
  to: string;
  children: ReactNode;
  className?: string;
}) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={onClick} className={className}>
      {children}
    </a>
  );
}
