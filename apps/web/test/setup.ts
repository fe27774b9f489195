import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import '../src/i18n/i18n.ts';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// jsdom has no layout: page changes scroll to the top in a browser, here they need not.
window.scrollTo = () => undefined;
