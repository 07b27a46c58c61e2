import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests that register a global OTel provider or context manager run in their own worker.
    pool: 'forks',
  },
});
