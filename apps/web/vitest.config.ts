import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'web',
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['test/setup.ts'],
    // Whole local games in jsdom: a busy 2-core machine (the suite runs its projects at once) needs more than 5 s.
    testTimeout: 20_000,
  },
});
