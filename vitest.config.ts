import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Many real processes each: `npm run test:slow` (vitest.slow.config.ts).
    exclude: ['node_modules/**', 'tests/**/*.slow.test.ts'],
    globalSetup: ['tests/global-setup.ts'],
    pool: 'forks',
    // Each file gets its own database, so files run in parallel safely.
    fileParallelism: true,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
  },
});
