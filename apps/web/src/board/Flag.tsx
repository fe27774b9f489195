import type { Side } from '@iron-curtain/game';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A small drawn flag with its side's name for screen readers. Memoised: a table draws dozens,
 * and a live match re-renders the table on every move.
 */
export const Flag = memo(function Flag({ side, size = 18 }: { side: Side; size?: number }) {
  const { t } = useTranslation();
  const height = Math.round((size * 2) / 3);
  if (side === 'US') {
    return (
      <svg
        width={size}
        height={height}
        viewBox="0 0 30 20"
        role="img"
        aria-label={t('sides.flag_US')}
      >
        <rect width="30" height="20" fill="#fff" />
        {[0, 2, 4, 6, 8, 10, 12].map((i) => (
          <rect key={i} y={(i * 20) / 13} width="30" height={20 / 13} fill="#b22234" />
        ))}
        <rect width="13" height="10.5" fill="#3c3b6e" />
      </svg>
    );
  }
  return (
    <svg
      width={size}
      height={height}
      viewBox="0 0 30 20"
      role="img"
      aria-label={t('sides.flag_USSR')}
    >
      <rect width="30" height="20" fill="#cc0000" />
      <path d="M6 3l.9 2.6h2.7l-2.2 1.6.8 2.6L6 8.2 3.8 9.8l.8-2.6-2.2-1.6h2.7z" fill="#ffd700" />
    </svg>
  );
});
