import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'web',
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['test/setup.ts'],
    // Node 25+ defines its own localStorage on the global (inert without --localstorage-file),
    // and Vitest 4's jsdom environment keeps a global that already exists, so jsdom's Storage
    // never lands. Off in the workers; Node 22 accepts the flag (its web storage is off already).
    execArgv: ['--no-experimental-webstorage'],
    // Whole local games in jsdom: a busy 2-core machine (the suite runs its projects at once) needs more than 5 s.
    testTimeout: 20_000,
  },
});
