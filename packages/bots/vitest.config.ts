import { defineProject } from 'vitest/config';

// The bots' tests play whole games; a loaded 2-core machine can take several times longer.
export default defineProject({
  test: { name: 'bots', include: ['test/**/*.test.ts'], environment: 'node', testTimeout: 60_000 },
});
