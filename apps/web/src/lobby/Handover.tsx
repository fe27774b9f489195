import type { Handover } from '@iron-curtain/protocol';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyLink } from '../app/CopyLink.tsx';
import { formatClock } from '../features/clock/SeatClock.tsx';
import { useNow } from '../features/useNow.ts';
import { errorWords } from '../i18n/errorWords.ts';
import { heldSeats, saveSeat } from '../match/seatStore.ts';
import { lobby } from './api.ts';

/** A handover link carries its code in the fragment: browsers never send it to a server. */
const FRAGMENT = '#handover=';

export const handoverLink = (code: string): string =>
  `${window.location.origin}/${FRAGMENT}${encodeURIComponent(code)}`;

/** The code a handover link brought in the address bar, if any. */
function codeInAddress(): string {
  const { hash } = window.location;
  if (!hash.startsWith(FRAGMENT)) return '';
  try {
    return decodeURIComponent(hash.slice(FRAGMENT.length));
  } catch {
    return '';
  }
}

/** The link as a QR code, drawn on a canvas (the library loads only when one is shown). */
function QrCode({ text }: { text: string }) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let shown = true;
    void import('qrcode').then(({ toCanvas }) => {
      if (shown && canvas.current) void toCanvas(canvas.current, text, { margin: 2, width: 200 });
    });
    return () => {
      shown = false;
    };
  }, [text]);
  return <canvas ref={canvas} className="handover-qr" role="img" aria-label={t('handover.qr')} />;
}

/** Hands every seat this browser holds to another browser: a code, its link and QR code, for 10 minutes. */
export function GiveGames() {
  const { t } = useTranslation();
  const [handover, setHandover] = useState<Handover | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const now = useNow(handover !== null, 1000);
  const left = handover ? Date.parse(handover.expiresAt) - now : 0;
  const start = async () => {
    setBusy(true);
    try {
      const seats = heldSeats().map(({ matchID, seat, credentials }) => ({
        matchID,
        seat,
        credentials,
      }));
      setHandover(await lobby.handOver({ seats }));
      setError(null);
    } catch (e) {
      setError(errorWords(t, e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="handover give-games">
      {handover && left > 0 ? (
        <>
          <p>{t('handover.giveText', { count: handover.seats })}</p>
          <p className="handover-code" data-code={handover.code}>
            {handover.code}
          </p>
          <QrCode text={handoverLink(handover.code)} />
          <CopyLink label={t('handover.link')} url={handoverLink(handover.code)} />
          <p role="timer">{t('handover.validFor', { time: formatClock(left) })}</p>
        </>
      ) : (
        <button type="button" className="secondary" disabled={busy} onClick={() => void start()}>
          {handover ? t('handover.again') : t('handover.give')}
        </button>
      )}
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Takes over the seats another browser handed over, with its code typed or brought by its link. */
export function TakeGames({ onTaken }: { onTaken: () => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState(codeInAddress);
  const [brought] = useState(() => code !== '');
  useEffect(() => {
    // Read once, the code leaves the address bar: the history keeps no usable link.
    const { pathname, search } = window.location;
    if (brought) window.history.replaceState(window.history.state, '', `${pathname}${search}`);
  }, [brought]);
  const [error, setError] = useState<string | null>(null);
  const [taken, setTaken] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    try {
      const { seats } = await lobby.redeemHandover(code);
      for (const { name, ...grant } of seats) saveSeat(grant, { name });
      setTaken(seats.length);
      setCode('');
      setError(null);
      onTaken();
    } catch (e) {
      setError(errorWords(t, e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <details className="panel handover take-games" open={brought || undefined}>
      <summary>{t('handover.takeTitle')}</summary>
      <form onSubmit={(e) => void submit(e)}>
        <label>
          {t('handover.code')}{' '}
          <input
            name="handover-code"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={32}
            required
          />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {t('handover.take')}
        </button>
      </form>
      {taken !== null && <p role="status">{t('handover.taken', { count: taken })}</p>}
      {error !== null && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </details>
  );
}
