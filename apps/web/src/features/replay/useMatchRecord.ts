import { type MatchRecord, matchRecordSchema } from '@iron-curtain/game';
import { useEffect, useState } from 'react';
import { useErrorWords } from '../../i18n/errorWords.ts';
import { lobby } from '../../lobby/api.ts';

/**
 * The stored record of a finished match of this server, read once per match: null until it
 * arrives; `error` says why it cannot be shown (the request failed, or the record is not one).
 */
export function useMatchRecord(matchID: string): {
  record: MatchRecord | null;
  error: string | null;
} {
  const errorText = useErrorWords();
  const [record, setRecord] = useState<MatchRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // An answer for a match the page has since left is dropped.
    let live = true;
    lobby.record(matchID).then(
      (json) => {
        if (!live) return;
        const parsed = matchRecordSchema.safeParse(json);
        if (parsed.success) setRecord(parsed.data);
        else setError(parsed.error.issues.map((i) => i.message).join('; '));
      },
      (e: unknown) => {
        if (live) setError(errorText(e));
      },
    );
    return () => {
      live = false;
    };
  }, [matchID, errorText]);
  return { record, error };
}
