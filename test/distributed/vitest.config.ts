import { defineConfig } from 'vitest/config';

// The distributed stores run for real (compose profile `distributed`: three OpenSearch nodes, Jaeger
// v2 on them, a Thanos receive ring of three, thanos query and rule), built by
// scripts/build-backends.sh and scripts/build-distributed.sh: `npm run test:distributed`, in .ci/run
// after the other stack suites. One file, one stack: minutes, about 2.3 GB of memory.
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/distributed/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    pool: 'forks',
    // The CLI the suite starts runs compiled (test/support/compiled.ts).
    globalSetup: ['test/support/compiled.ts'],
  },
});
