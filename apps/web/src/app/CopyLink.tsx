import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A link with a one-click copy button; falls back to selecting the text when the clipboard is not available. */
export function CopyLink({ label, url }: { label: string; url: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return (
    <div className="copy-link">
      <label>
        <span>{label}</span>
        <input readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
      </label>
      <button type="button" onClick={copy}>
        {copied === 'yes' ? t('copy.copied') : t('copy.copy')}
      </button>
      {copied === 'no' && <span className="hint">{t('copy.failed')}</span>}
    </div>
  );
}
