// `npm run test:slow`: the tests too slow for every `npm test` (many real processes), with the
// same global setup and settings. CI runs them after the suite.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default defineConfig({
  test: {
    ...base.test,
    include: ['tests/**/*.slow.test.ts'],
    exclude: ['node_modules/**'],
  },
});
