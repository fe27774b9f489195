import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { setLanguage } from '../src/i18n/i18n.ts';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// jsdom has no layout: page changes scroll to the top in a browser, here they need not.
window.scrollTo = () => undefined;

// The texts load on demand, as in the browser: English before any test renders.
await setLanguage('en', { remember: false });
