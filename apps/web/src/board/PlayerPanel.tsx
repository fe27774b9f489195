import { HIDDEN_CARD, type Seat, type State, supplyOf } from '@iron-curtain/game';
import type { ClockState, Presence } from '@iron-curtain/protocol';
import { useTranslation } from 'react-i18next';
import { Link } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { countsDays, SeatClock, useFormatDeadline } from '../features/clock/SeatClock.tsx';
import { useGameWords } from '../i18n/gameWords.ts';
import { CardBack, Cube } from './CardFace.tsx';
import { Flag } from './Flag.tsx';
import { HiddenHand } from './Hands.tsx';
import { useRules } from './rules.tsx';

/** What a live match knows about its seats beyond the game state: who is here, and the clock. */
export interface SeatsLive {
  presence: Presence | null;
  clock: ClockState | null;
  /** When the clock was received (ms since the epoch). */
  clockAt: number;
  /** The match is over: the clock stands still. */
  stopped: boolean;
  /** Who holds each seat (an account's name, a computer, or null: a guest), once known. */
  accounts?: Record<Seat, string | { computer: true } | null> | undefined;
}

export interface PlayerPanelProps {
  view: State;
  /** The seat this panel shows. */
  seat: Seat;
  /** The viewer's seat, or null for a spectator. */
  viewer: Seat | null;
  names: Record<Seat, string>;
  live?: SeatsLive | undefined;
}

/**
 * One player at the table, as on a game site's player panel: flag, side and name, whether they
 * are here, their clock, the cubes left in supply, the cards in hand and the aftermath card
 * (face down until the viewer may see it). The seat to move glows.
 */
export function PlayerPanel({ view, seat, viewer, names, live }: PlayerPanelProps) {
  const { t } = useTranslation();
  const words = useGameWords();
  const rules = useRules();
  const side = view.sides[seat];
  const toMove = view.result === null && view.decision?.seat === seat;
  const player = live?.presence?.players[seat];
  // A taken seat of a live match, once its accounts are known: an account's name links to its
  // profile; the side's line says whose name it is, costing the panel no height.
  const marked = Boolean(player?.name && live?.accounts);
  const holder = marked ? live?.accounts?.[seat] : null;
  const account = typeof holder === 'string' ? holder : null;
  const mark = account
    ? t('profile.accountMark')
    : holder
      ? t('profile.computerMark')
      : t('profile.guestMark');
  const aftermath = view.aftermath[seat];
  const hand = view.hands[seat].length;
  const supply = supplyOf(view, side);
  const formatDeadline = useFormatDeadline();
  return (
    <section
      className={`player-panel ${side === 'US' ? 'us' : 'ussr'}${toMove ? ' to-move' : ''}`}
      aria-label={t('seatPanels.label', { side: words.side(side), name: names[seat] })}
      data-player={seat}
      data-side={side}
      data-to-move={toMove}
    >
      <div className="player-head">
        <Flag side={side} size={28} />
        <span className="player-who">
          <span className="player-name">
            {account ? <Link to={paths.profile(account)}>{account}</Link> : names[seat]}
            {viewer === seat && t('connection.you')}
          </span>
          <span className="player-side">
            {words.side(side)}
            {marked && ` · ${mark}`}
          </span>
        </span>
        {player?.name && (
          <span
            className={`presence ${player.connected ? 'on' : 'off'}`}
            data-presence={player.connected ? 'here' : 'away'}
          >
            {player.connected ? t('connection.onlineMark') : t('connection.away')}
          </span>
        )}
        {live?.clock && (
          <SeatClock
            seat={seat}
            clock={live.clock}
            receivedAt={live.clockAt}
            stopped={live.stopped}
            label={t('clock.seat', { side, name: names[seat], time: '' })}
          />
        )}
      </div>
      {live?.clock && countsDays(live.clock) && live.clock.running === seat && !live.stopped && (
        <TurnEnds when={formatDeadline(live.clockAt + live.clock.remainingMs[seat])} />
      )}
      {toMove && <p className="player-turn">{t('seatPanels.toMove')}</p>}
      <dl className="player-counts">
        <div data-count="supply">
          <CountLabel text={t('seatPanels.supply')} />
          <dd>
            <Cube side={side} />
            <span className="count">{supply}</span>
          </dd>
        </div>
        <div data-count="hand">
          <CountLabel text={t('seatPanels.hand')} />
          <dd>
            {viewer === seat ? (
              <span className="mini-card" aria-hidden="true" />
            ) : (
              <HiddenHand side={side} count={hand} name={names[seat]} quiet />
            )}
            <span className="count">{hand}</span>
          </dd>
        </div>
        <div data-count="aftermath">
          <CountLabel text={t('seatPanels.aftermath')} />
          <dd>
            {aftermath === null ? (
              <span className="none">{t('seatPanels.aftermathNone')}</span>
            ) : aftermath === HIDDEN_CARD ? (
              <CardBack label={t('seatPanels.aftermathHidden')} />
            ) : (
              <span className="aftermath-card" data-aftermath={aftermath}>
                {words.cardName(rules.deck, aftermath)}
              </span>
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

/**
 * When a correspondence turn ends, under its clock; on a phone's narrow panel the date and time
 * alone on one line, the sentence for screen readers.
 */
function TurnEnds({ when }: { when: string }) {
  const { t } = useTranslation();
  return (
    <p className="seat-deadline">
      <span className="seat-deadline-words">{t('clock.turnEnds', { when })}</span>
      <span className="seat-deadline-date" aria-hidden="true">
        {when}
      </span>
    </p>
  );
}

/** What a count is: on screen beside it (not on a phone's narrow panel), always for screen readers. */
function CountLabel({ text }: { text: string }) {
  return (
    <dt>
      <span className="count-label" aria-hidden="true">
        {text}
      </span>
      <span className="sr-only">{text}</span>
    </dt>
  );
}
