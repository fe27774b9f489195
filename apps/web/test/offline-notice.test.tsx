import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OfflineNotice } from '../src/app/OfflineNotice.tsx';
import { setLanguage } from '../src/i18n/i18n.ts';

const setOnline = (online: boolean) => {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
};

afterEach(async () => {
  Reflect.deleteProperty(navigator, 'onLine');
  await setLanguage('en', { remember: false });
});

describe('the offline notice', () => {
  it('says nothing online, tells what waits and what works once the browser goes offline, and goes when it is back', () => {
    render(<OfflineNotice />);
    const notice = screen.getByRole('status');
    expect(notice.textContent).toBe('');
    setOnline(false);
    expect(notice.textContent).toBe(
      'You are offline. Playing online waits for the connection; the rules, the tutorial and two on one device work without it.',
    );
    setOnline(true);
    expect(notice.textContent).toBe('');
  });

  it('is there from the start when the page opens offline, in the reader’s language', async () => {
    await setLanguage('pl', { remember: false });
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    render(<OfflineNotice />);
    expect(screen.getByRole('status').textContent).toMatch(/^Jesteś offline\./);
  });
});
