import { defineProject } from 'vitest/config';

// The end-to-end test: the built server and client, driven in Debian's Chromium.
export default defineProject({
  test: {
    name: 'web-e2e',
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
