import { SEATS, type Seat, type Side } from '@iron-curtain/game';
import type { Presence } from '@iron-curtain/protocol';
import { Flag } from '../board/Flag.tsx';
import type { Connection } from './gameClient.ts';

const CONNECTION_WORDS: Record<Connection, string> = {
  connecting: 'Connecting…',
  online: 'Connected',
  reconnecting: 'Connection lost, reconnecting…',
  offline: 'Offline',
};

interface ConnectionBarProps {
  connection: Connection;
  synced: boolean;
  presence: Presence | null;
  sides: Record<Seat, Side> | null;
  seat: Seat | null;
}

/** Who plays which side, who is connected, how many watch, and the state of this page's connection. */
export function ConnectionBar({ connection, synced, presence, sides, seat }: ConnectionBarProps) {
  const state =
    connection === 'online' && !synced ? 'Joining the match…' : CONNECTION_WORDS[connection];
  return (
    <header className="connection-bar">
      <ul className="players">
        {SEATS.map((s) => {
          const player = presence?.players[s];
          const side = sides?.[s];
          return (
            <li key={s} data-player={s}>
              {side && <Flag side={side} />} {side ?? `Seat ${Number(s) + 1}`}:{' '}
              {player?.name ?? <em>waiting for a player</em>}
              {seat === s && ' (you)'}{' '}
              {player?.name && (
                <span
                  className={`presence ${player.connected ? 'on' : 'off'}`}
                  title={player.connected ? 'connected' : 'not connected'}
                >
                  {player.connected ? '● online' : '○ away'}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      <span className="spectators">
        {presence ? `${presence.spectators} watching` : ''}
        {seat === null && ' · you are watching'}
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
