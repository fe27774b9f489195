import './chat.css';
import type { Seat } from '@iron-curtain/game';
import { type ChatLine, chatPhrases, MAX_CHAT_CHARS } from '@iron-curtain/protocol';
import { type FormEvent, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorWords } from '../i18n/errorWords.ts';
import type { MatchChat } from './chatClient.ts';

export interface ChatPanelProps {
  chat: MatchChat;
  /** null: a spectator, who talks in the spectators' room. */
  seat: Seat | null;
  names: Record<Seat, string>;
}

/**
 * The match chat: the lines this viewer may read, quick phrases as one-tap buttons (each
 * shown in the reader's language), free text when the server takes it, and the switches:
 * the creator turns the chat off, a seat mutes its opponent. Text is rendered as text only.
 */
export function ChatPanel({ chat, seat, names }: ChatPanelProps) {
  const { t } = useTranslation();
  const errorText = useErrorWords();
  const { lines, settings, sending, refusal } = useSyncExternalStore(
    chat.subscribe,
    chat.getSnapshot,
  );
  const [draft, setDraft] = useState('');
  const list = useRef<HTMLOListElement>(null);
  const lastLine = lines.at(-1)?.id;

  // The newest line in view, inside the list only (the page itself does not move).
  useEffect(() => {
    const element = list.current;
    if (element && lastLine !== undefined) element.scrollTop = element.scrollHeight;
  }, [lastLine]);

  if (!settings) return null;
  const off = settings.off;
  const who = (line: ChatLine) => (line.seat === null ? t('chat.spectator') : names[line.seat]);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (await chat.sayText(draft)) setDraft('');
  };

  return (
    <section className="panel chat-panel" aria-label={t('chat.title')} data-chat-off={off}>
      <h2>{seat === null ? t('chat.spectatorsTitle') : t('chat.title')}</h2>
      <p className="chat-note">
        {seat === null ? t('chat.spectatorsNote') : t('chat.playersNote')}
      </p>
      {lines.length === 0 ? (
        <p className="chat-empty">{t('chat.empty')}</p>
      ) : (
        <ol className="chat-lines" ref={list} aria-live="polite" tabIndex={-1}>
          {lines.map((line) => (
            <li key={line.id} data-room={line.room} data-seat={line.seat ?? 'spectator'}>
              <span className="chat-who">{who(line)}</span>{' '}
              <span className="chat-said">
                {line.phrase ? t(`chat.phrases.${line.phrase}`) : line.text}
              </span>
            </li>
          ))}
        </ol>
      )}
      {off && <p className="chat-off">{t('chat.off')}</p>}
      {settings.mutingOpponent && <p className="chat-muted">{t('chat.muted')}</p>}
      {!off && (
        <fieldset className="chat-phrases" disabled={sending}>
          <legend>{t('chat.phrasesLabel')}</legend>
          {chatPhrases.map((phrase) => (
            <button key={phrase} type="button" onClick={() => void chat.sayPhrase(phrase)}>
              {t(`chat.phrases.${phrase}`)}
            </button>
          ))}
        </fieldset>
      )}
      {/* The box to type in and what the server said of the last message: held at the foot of
          a panel that scrolls (the side column at 1366x768), never below its fold. */}
      <div className="chat-compose">
        {!off && settings.freeText && (
          <form className="chat-form" onSubmit={send}>
            <label>
              <span className="sr-only">{t('chat.textLabel')}</span>
              <input
                type="text"
                value={draft}
                maxLength={MAX_CHAT_CHARS}
                placeholder={t('chat.placeholder')}
                autoComplete="off"
                onChange={(event) => setDraft(event.target.value)}
              />
            </label>
            <button type="submit" className="primary" disabled={sending || draft.trim() === ''}>
              {t('chat.send')}
            </button>
          </form>
        )}
        {!off && !settings.freeText && <p className="chat-note">{t('chat.quickOnly')}</p>}
        {refusal && (
          <p className="chat-refusal" role="alert" data-chat-refusal={refusal.code}>
            {errorText(refusal)}
          </p>
        )}
      </div>
      {(seat !== null || settings.canSwitch) && (
        <div className="chat-switches">
          {seat !== null && (
            <button
              type="button"
              aria-pressed={settings.mutingOpponent}
              disabled={sending}
              onClick={() => void chat.muteOpponent(!settings.mutingOpponent)}
            >
              {settings.mutingOpponent ? t('chat.unmute') : t('chat.mute')}
            </button>
          )}
          {settings.canSwitch && (
            <button type="button" disabled={sending} onClick={() => void chat.switchOff(!off)}>
              {off ? t('chat.turnOn') : t('chat.turnOff')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
