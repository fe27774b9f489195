import { SEATS, type Seat, type Side } from '@iron-curtain/game';
import type { Presence } from '@iron-curtain/protocol';
import { useTranslation } from 'react-i18next';
import { Flag } from '../board/Flag.tsx';
import { useGameWords } from '../i18n/gameWords.ts';
import type { Connection } from './gameClient.ts';

interface ConnectionBarProps {
  connection: Connection;
  synced: boolean;
  presence: Presence | null;
  sides: Record<Seat, Side> | null;
  seat: Seat | null;
}

/** Who plays which side, who is connected, how many watch, and the state of this page's connection. */
export function ConnectionBar({ connection, synced, presence, sides, seat }: ConnectionBarProps) {
  const { t } = useTranslation();
  const words = useGameWords();
  const state =
    connection === 'online' && !synced ? t('connection.joining') : t(`connection.${connection}`);
  return (
    <header className="connection-bar">
      <ul className="players">
        {SEATS.map((s) => {
          const player = presence?.players[s];
          const side = sides?.[s];
          return (
            <li key={s} data-player={s}>
              {side && <Flag side={side} />}{' '}
              {side ? words.side(side) : t('connection.seat', { n: Number(s) + 1 })}:{' '}
              {player?.name ?? <em>{t('match.waitingForPlayer')}</em>}
              {seat === s && t('connection.you')}{' '}
              {player?.name && (
                <span
                  className={`presence ${player.connected ? 'on' : 'off'}`}
                  title={
                    player.connected ? t('connection.connected') : t('connection.notConnected')
                  }
                >
                  {player.connected ? t('connection.onlineMark') : t('connection.away')}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      <span className="spectators">
        {presence ? t('connection.watching', { count: presence.spectators }) : ''}
        {seat === null && t('connection.youWatch')}
      </span>
      <span
        className={`connection ${connection}${synced ? ' synced' : ''}`}
        role="status"
        data-connection={synced ? 'synced' : connection}
      >
        {state}
      </span>
    </header>
  );
}
