import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace; each workspace with tests has its own project config.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'apps/web/vitest.e2e.config.ts'],
  },
});
