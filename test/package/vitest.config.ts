import { defineConfig } from 'vitest/config';

// The consumer tests: slow (each installs the packed tarball into a fresh project), so they run apart
// from `npm test`, as `npm run test:package` (and in .ci/run after `npm test`).
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/package/**/*.test.ts'],
    globalSetup: ['test/package/support/pack.ts'],
    testTimeout: 240_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
