import { availableParallelism } from 'node:os';
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
    // Much of the suite waits on child processes, sockets and timers rather than computing: one
    // worker more than there are cores keeps them busy (vitest's default, one fewer, ran this
    // suite in a single worker on a 2-core machine).
    maxWorkers: availableParallelism() + 1,
    // The CLI and the fixture processes the tests start run compiled (test/support/compiled.ts).
    globalSetup: ['test/support/compiled.ts'],
  },
});
