import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The consumer tests install the packed tarball: `npm run test:package` (test/package/vitest.config.ts);
    // the stack suites run the real backends: `npm run test:stack` (test/stack/vitest.config.ts).
    exclude: [...configDefaults.exclude, 'test/package/**', 'test/stack/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests that register a global OTel provider or context manager run in their own worker.
    pool: 'forks',
    // The CLI and the fixture processes the tests start run compiled (test/support/compiled.ts).
    globalSetup: ['test/support/compiled.ts'],
  },
});
