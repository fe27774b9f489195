import { type MoveName, SEATS, type Seat, type Side, viewFor } from '@iron-curtain/game';
import { type FormEvent, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { MatchView } from '../board/MatchView.tsx';
import { useGameWords } from '../i18n/gameWords.ts';
import { LocalMatch } from '../local/localGame.ts';

const SIDES: Record<Seat, Side> = { '0': 'US', '1': 'USSR' };

/** Two people on one device: the engine runs in the page, each hand hidden between turns. */
export function HotseatPage() {
  const { t } = useTranslation();
  const [game, setGame] = useState<{ match: LocalMatch; names: Record<Seat, string> } | null>(null);

  const start = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = (field: string, fallback: string) =>
      String(form.get(field) ?? '').trim() || fallback;
    setGame({
      match: new LocalMatch({ sides: SIDES }),
      names: {
        '0': name('us', t('hotseat.defaultUS')),
        '1': name('ussr', t('hotseat.defaultUSSR')),
      },
    });
  };

  return (
    <main className={`page hotseat-page${game ? ' match-page' : ''}`}>
      <header className="title">
        <h1>{t('hotseat.title')}</h1>
        <p>{t('hotseat.intro')}</p>
      </header>
      {game ? (
        <HotseatTable match={game.match} names={game.names} onNew={() => setGame(null)} />
      ) : (
        <form className="panel" onSubmit={start} aria-label={t('hotseat.title')}>
          <label>
            {t('hotseat.usName')} <input name="us" maxLength={24} autoComplete="off" />
          </label>
          <label>
            {t('hotseat.ussrName')} <input name="ussr" maxLength={24} autoComplete="off" />
          </label>
          <button type="submit" className="primary">
            {t('hotseat.start')}
          </button>
        </form>
      )}
    </main>
  );
}

function HotseatTable({
  match,
  names,
  onNew,
}: {
  match: LocalMatch;
  names: Record<Seat, string>;
  onNew: () => void;
}) {
  const { t } = useTranslation();
  const { state, log, version } = useSyncExternalStore(match.subscribe, match.getSnapshot);
  // The seat whose hand is on screen; a decision for the other seat first covers the table.
  const [shown, setShown] = useState<Seat | null>(null);
  // Where each seat's "just happened" begins: what the other did since this seat last played.
  const [lastSeen, setLastSeen] = useState<Record<Seat, number>>({ '0': 0, '1': 0 });
  const [recentFrom, setRecentFrom] = useState(0);
  const over = state.result !== null;
  const decider = state.decision?.seat ?? null;
  const seat = over ? null : shown;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the engine changes the state in place; version marks each change
  const view = useMemo(() => viewFor(state, seat), [state, seat, version]);

  if (!over && decider !== null && decider !== shown) {
    return (
      <PassDevice
        seat={decider}
        name={names[decider]}
        onReady={() => {
          setRecentFrom(lastSeen[decider]);
          setShown(decider);
        }}
      />
    );
  }

  const onMove = (move: MoveName, args: unknown[]) => {
    if (seat === null) return;
    const before = match.getSnapshot().log.length;
    if (!match.move(seat, move, args)) return;
    setRecentFrom(before);
    setLastSeen((seen) => ({ ...seen, [seat]: match.getSnapshot().log.length }));
  };

  return (
    <>
      <MatchView
        rules={match.rules}
        view={view}
        seat={seat}
        names={names}
        log={log}
        recent={log.slice(over ? lastSeenOverall(lastSeen) : recentFrom)}
        pending={false}
        connected
        onMove={onMove}
      />
      {over && (
        <button type="button" className="primary" onClick={onNew}>
          {t('hotseat.newGame')}
        </button>
      )}
    </>
  );
}

const lastSeenOverall = (seen: Record<Seat, number>) => Math.min(...SEATS.map((s) => seen[s]));

/** Covers the table until the next player says they hold the device. */
function PassDevice({ seat, name, onReady }: { seat: Seat; name: string; onReady: () => void }) {
  const { t } = useTranslation();
  const words = useGameWords();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  const side = words.side(SIDES[seat]);
  return (
    <section className="panel pass-device" aria-label={t('hotseat.passTo', { name, side })}>
      <h2>{t('hotseat.passTo', { name, side })}</h2>
      <p>{t('hotseat.passText', { name })}</p>
      <button ref={button} type="button" className="primary" data-pass={seat} onClick={onReady}>
        {t('hotseat.ready', { name })}
      </button>
    </section>
  );
}
