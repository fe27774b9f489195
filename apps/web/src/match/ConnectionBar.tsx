import type { Seat } from '@iron-curtain/game';
import type { Presence } from '@iron-curtain/protocol';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Connection } from './gameClient.ts';

interface ConnectionBarProps {
  connection: Connection;
  synced: boolean;
  presence: Presence | null;
  seat: Seat | null;
  /** The viewer's own actions at the end of the bar (resign). */
  children?: ReactNode;
}

/**
 * The bar above the table: how many watch, the state of this page's connection, and the
 * viewer's actions. Who plays which side, and who is here, the players' panels show.
 */
export function ConnectionBar({
  connection,
  synced,
  presence,
  seat,
  children,
}: ConnectionBarProps) {
  const { t } = useTranslation();
  const state =
    connection === 'online' && !synced ? t('connection.joining') : t(`connection.${connection}`);
  return (
    <header className="connection-bar">
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
      {children}
    </header>
  );
}
