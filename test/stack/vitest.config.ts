import { defineConfig } from 'vitest/config';

// The stack suites: the shipped configs, dashboards and rules checked, and the real backends
// (scripts/build-backends.sh) run on 127.0.0.1. Slow, so they run apart from `npm test`, as
// `npm run test:stack` (and in .ci/run after `npm test`).
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/stack/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The CLI the stack suites start runs compiled (test/support/compiled.ts).
    globalSetup: ['test/support/compiled.ts'],
  },
});
