import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// jsdom has no layout: page changes scroll to the top in a browser, here they need not.
window.scrollTo = () => undefined;
