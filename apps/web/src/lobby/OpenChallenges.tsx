import {
  apiRoutes,
  CHALLENGES_EVENT,
  type ChallengeList,
  challengeListSchema,
  type OpenChallenge,
} from '@iron-curtain/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PlayerName } from '../app/PlayerName.tsx';
import { Link, navigate } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { useClockWords } from '../features/clock/ClockChoice.tsx';
import { useNow } from '../features/useNow.ts';
import { errorWords } from '../i18n/errorWords.ts';
import { useGameWords } from '../i18n/gameWords.ts';
import { loadSeat, saveSeat } from '../match/seatStore.ts';
import { LobbyError, lobby } from './api.ts';
import { type Seating, seated } from './playerName.ts';
import { useLobbyAction } from './useLobbyAction.ts';

interface Received {
  list: ChallengeList;
  /** This browser's time when the list arrived: waiting times count on from the server's `at`. */
  receivedAt: number;
}

/** The open challenges, live (server-sent events); read once where the browser has no EventSource. */
function useChallenges(): { received: Received | null; error: unknown } {
  const [received, setReceived] = useState<Received | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const take = (list: ChallengeList) => {
      setReceived({ list, receivedAt: Date.now() });
      setError(null);
    };
    if (typeof EventSource === 'undefined') {
      lobby.listChallenges().then(take, setError);
      return;
    }
    const source = new EventSource(apiRoutes.challengeStream);
    source.addEventListener(CHALLENGES_EVENT, (event) => {
      let json: unknown;
      try {
        json = JSON.parse((event as MessageEvent<string>).data);
      } catch {
        json = undefined;
      }
      const parsed = challengeListSchema.safeParse(json);
      if (parsed.success) take(parsed.data);
      else setError(new LobbyError('BAD_RESPONSE', 'the challenge list does not parse'));
    });
    // The browser reconnects by itself; only a refused stream closes for good.
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) {
        setError(new LobbyError('NETWORK', 'the challenge list stream closed'));
      }
    });
    return () => source.close();
  }, []);
  return { received, error };
}

function ChallengeRow({
  challenge,
  waitedMs,
  seating,
}: {
  challenge: OpenChallenge;
  waitedMs: number;
  seating: Seating;
}) {
  const { t } = useTranslation();
  const words = useGameWords();
  const clockWords = useClockWords();
  const { busy, error, run } = useLobbyAction();
  const mine = loadSeat(challenge.matchID) !== null;
  const { aftermathCap, finalScoringOrder } = challenge.variants;
  const rules = [
    aftermathCap === null
      ? t('challenges.uncapped')
      : t('challenges.capped', { count: aftermathCap }),
    ...(finalScoringOrder === 'polish' ? [t('challenges.polishOrder')] : []),
  ].join(', ');
  const minutes = Math.floor(waitedMs / 60_000);

  const takeSeat = () =>
    run(seating, async (sitter) => {
      const grant = await lobby.joinMatch(challenge.matchID, sitter.request);
      saveSeat(grant, { name: sitter.name });
      seated(sitter);
      navigate(paths.match(challenge.matchID));
    });

  return (
    <li className="challenge" data-match={challenge.matchID}>
      <span className="challenger">
        <PlayerName name={challenge.creator} account={challenge.creatorAccount} />
      </span>
      <span>{t('challenges.youPlay', { side: words.theSide(challenge.side) })}</span>
      <span>{rules}</span>
      <span>{clockWords(challenge)}</span>
      <span className="waited">
        {minutes < 1 ? t('challenges.justNow') : t('challenges.waited', { count: minutes })}
      </span>
      {mine ? (
        <Link to={paths.match(challenge.matchID)}>{t('challenges.yours')}</Link>
      ) : (
        <button type="button" className="primary" disabled={busy} onClick={() => void takeSeat()}>
          {t('challenges.take', { name: challenge.creator })}
        </button>
      )}
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </li>
  );
}

/** Matches open to anyone: the list updates by itself; one click takes the free seat. */
export function OpenChallenges({ seating }: { seating: Seating }) {
  const { t } = useTranslation();
  const { received, error } = useChallenges();
  // Waiting times are shown in minutes: a tick every 15 s keeps them close enough.
  const now = useNow(true, 15_000);
  const challenges = received?.list.challenges ?? [];
  return (
    <section className="panel open-challenges" aria-labelledby="challenges-title">
      <h2 id="challenges-title">{t('challenges.title')}</h2>
      {error !== null && <p className="error">{errorWords(t, error)}</p>}
      {received && challenges.length === 0 && <p>{t('challenges.none')}</p>}
      <ul>
        {challenges.map((challenge) => (
          <ChallengeRow
            key={challenge.matchID}
            challenge={challenge}
            seating={seating}
            waitedMs={
              Date.parse(received?.list.at ?? '') -
              Date.parse(challenge.createdAt) +
              Math.max(0, now - (received?.receivedAt ?? now))
            }
          />
        ))}
      </ul>
    </section>
  );
}
