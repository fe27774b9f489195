import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Real sockets, a real SQLite file and Postgres: give each file time, never retry.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
