import { useTranslation } from 'react-i18next';
import './features.css';
import { type Deck, isReconstructed, type Seat, type Side } from '@iron-curtain/game';
import type { ClockState, Presence } from '@iron-curtain/protocol';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from '../app/router.tsx';
import { paths } from '../app/routes.ts';

// None of these is part of the table's first render: each loads when the match first shows it,
// outside the match page's first download (bench/web-bundle.ts).
const ClaimWin = lazy(() =>
  import('./abandon/ClaimWin.tsx').then((m) => ({ default: m.ClaimWin })),
);
const PushOptIn = lazy(() =>
  import('./push/PushOptIn.tsx').then((m) => ({ default: m.PushOptIn })),
);
const RematchOffer = lazy(() =>
  import('./rematch/Rematch.tsx').then((m) => ({ default: m.RematchOffer })),
);
const FollowRematch = lazy(() =>
  import('./rematch/Rematch.tsx').then((m) => ({ default: m.FollowRematch })),
);

export interface MatchExtrasProps {
  matchID: string;
  seat: Seat | null;
  credentials?: string | undefined;
  presence: Presence | null;
  /** The latest clock a frame or presence carried, and when it arrived. */
  clock: ClockState | null;
  clockAt: number;
  sides: Record<Seat, Side> | null;
  /** The deck the match is dealt from, as the table has it. */
  deck: Deck | null;
}

/** Which deck a match is dealt from. */
function DeckLine({ deck }: { deck: Deck }) {
  const { t } = useTranslation();
  return (
    <p className="deck-line" data-deck-id={deck.id}>
      {t('deck.uses', { name: deck.name, version: deck.version })}
      {isReconstructed(deck) ? ` · ${t('deck.reconstructed')}` : ''}
    </p>
  );
}

/** Everything around the table: claiming the win, notifications, rematch, replay, the deck in use. */
export function MatchExtras({
  matchID,
  seat,
  credentials,
  presence,
  clock,
  clockAt,
  sides,
  deck,
}: MatchExtrasProps) {
  const { t } = useTranslation();
  const [presenceAt, setPresenceAt] = useState(() => Date.now());
  const status = presence?.status;
  useEffect(() => {
    if (presence) setPresenceAt(Date.now());
  }, [presence]);

  const finished = status === 'finished';
  return (
    <div className="match-extras">
      <Suspense fallback={null}>
        {seat !== null && credentials && presence && status === 'playing' && (
          <ClaimWin
            matchID={matchID}
            seat={seat}
            credentials={credentials}
            presence={presence}
            presenceAt={presenceAt}
            clock={clock}
            clockAt={clockAt}
          />
        )}
        {seat !== null && credentials && presence && !finished && (
          <PushOptIn seats={[{ matchID, seat, credentials }]} />
        )}
        {finished && presence && seat !== null && credentials && sides && presence.result && (
          <RematchOffer
            matchID={matchID}
            seat={seat}
            credentials={credentials}
            side={sides[seat]}
            presence={presence}
          />
        )}
        {finished && presence && seat === null && <FollowRematch presence={presence} />}
      </Suspense>
      {finished && (
        <p className="replay-link">
          <Link to={paths.replay(matchID)}>{t('replay.watch')}</Link>
        </p>
      )}
      {deck && <DeckLine deck={deck} />}
    </div>
  );
}
