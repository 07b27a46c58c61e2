import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { ISOLATED_TESTS } from './test/support/isolation.js';

// The consumer tests install the packed tarball: `npm run test:package` (test/package/vitest.config.ts);
// the stack suites run the real backends: `npm run test:stack` (test/stack/vitest.config.ts), and the
// distributed stores `npm run test:distributed` (test/distributed/vitest.config.ts).
const exclude = [...configDefaults.exclude, 'test/package/**', 'test/stack/**', 'test/distributed/**'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Much of the suite waits on child processes, sockets and timers rather than computing: one
    // worker more than there are cores keeps them busy (vitest's default, one fewer, ran this
    // suite in a single worker on a 2-core machine).
    maxWorkers: availableParallelism() + 1,
    // The CLI and the fixture processes the tests start run compiled (test/support/compiled.ts).
    globalSetup: ['test/support/compiled.ts'],
    // Files that set process-wide state run in a worker of their own; the rest share workers
    // (test/support/isolation.ts says why and which).
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED_TESTS, exclude } },
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...exclude, ...ISOLATED_TESTS], isolate: false, setupFiles: ['test/support/sharedWorker.ts'] },
      },
    ],
  },
});
