import type { LogEntry, Seat, State } from '@iron-curtain/game';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { playSound, setSoundOn, useSoundOn } from './sound.ts';
import type { TableSound } from './synth.ts';

/** The sound for what one move did: the weightiest of its entries. */
export function soundFor(entries: LogEntry[]): TableSound | null {
  const has = (...types: LogEntry['type'][]) => entries.some((e) => types.includes(e.type));
  if (has('gameOver')) return 'end';
  if (has('regionScored', 'aftermathRevealed')) return 'scoring';
  if (has('play', 'move')) return 'card';
  if (has('place', 'remove')) return 'cubes';
  return null;
}

const canNotify = () => typeof Notification !== 'undefined';

/**
 * What the player hears and is told while looking elsewhere: a sound per move, and when it
 * becomes their turn a sound and, with the tab hidden, a browser notification if they allowed it.
 */
export function useTableCues(view: State, seat: Seat | null, recent: LogEntry[], mine: boolean) {
  const { t } = useTranslation();
  const first = useRef(true);
  useEffect(() => {
    // What the page found on opening already happened: no sound for it.
    if (first.current) {
      first.current = false;
      return;
    }
    const sound = soundFor(recent);
    if (sound) playSound(sound);
  }, [recent]);

  useEffect(() => {
    if (!mine || seat === null || view.result) return;
    playSound('turn');
    if (document.hidden && canNotify() && Notification.permission === 'granted') {
      new Notification(t('app.yourTurnTitle'), { tag: 'iron-curtain-turn' });
    }
  }, [mine, seat, view.result, t]);
}

/** Sound on or off, and the permission for turn notifications. */
export function TableOptions({ player }: { player: boolean }) {
  const { t } = useTranslation();
  const sound = useSoundOn();
  const [permission, setPermission] = useState(() =>
    canNotify() ? Notification.permission : 'denied',
  );
  return (
    <section className="panel table-options" aria-label={t('table.options')}>
      <h2>{t('table.options')}</h2>
      <div className="choices">
        <button
          type="button"
          className="secondary"
          aria-pressed={sound}
          data-option="sound"
          onClick={() => setSoundOn(!sound)}
        >
          {sound ? t('table.soundOn') : t('table.soundOff')}
        </button>
        {player && canNotify() && permission !== 'denied' && (
          <button
            type="button"
            className="secondary"
            aria-pressed={permission === 'granted'}
            disabled={permission === 'granted'}
            onClick={() => void Notification.requestPermission().then(setPermission)}
          >
            {permission === 'granted' ? t('table.notifyOn') : t('table.notifyAsk')}
          </button>
        )}
      </div>
    </section>
  );
}
