import { availableParallelism } from 'node:os';
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
    // Vitest's default is one worker per CPU minus one: a single worker on a 2-CPU machine, so
    // the files ran one after another, though much of a file's time is spent waiting
    // (PostgreSQL, child processes, timers).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker keeps its modules from one file to the next instead of loading the app again
    // for each (about 3 s a file). Files share no state through modules: each builds its own
    // app, database and fakes in its hooks.
    isolate: false,
    testTimeout: 20_000,
    // expect.poll waits for what must come; its default of 1 s failed a browser test waiting for
    // the lazily loaded map while the two CPUs were busy with other files.
    expect: { poll: { timeout: 5_000 } },
    hookTimeout: 60_000,
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
  },
});
