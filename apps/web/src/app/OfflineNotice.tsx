import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

const subscribe = (changed: () => void) => {
  window.addEventListener('online', changed);
  window.addEventListener('offline', changed);
  return () => {
    window.removeEventListener('online', changed);
    window.removeEventListener('offline', changed);
  };
};

/** Whether the browser says it has no network (an installed app opened offline). */
export const useOffline = (): boolean =>
  useSyncExternalStore(
    subscribe,
    () => navigator.onLine === false,
    () => false,
  );

/** Under the site's bar on every page while the browser is offline: what waits, what works. */
export function OfflineNotice() {
  const { t } = useTranslation();
  const offline = useOffline();
  return (
    <div className="offline-notice" role="status" aria-live="polite">
      {offline && <p>{t('app.offline')}</p>}
    </div>
  );
}
