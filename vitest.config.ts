import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const HEAVY = ['test/e2e/**/*.test.ts', 'test/fault/**/*.test.ts', 'test/package/**/*.test.ts'];

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./', import.meta.url)),
      // Route tests import server modules directly; outside Next.js `server-only` would throw.
      'server-only': fileURLToPath(new URL('./test/helpers/server-only.ts', import.meta.url)),
    },
  },
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
    // Tests with protocol deadlines (tens of milliseconds) run first, two files at a time; the CPU-heavy suites
    // (Chromium with a Next.js server, the multi-process fault checker) run afterwards, one at a time, so they
    // never steal the CPU from a timing assertion.
    projects: [
      {
        extends: true,
        test: {
          name: 'core',
          include: ['test/**/*.test.ts'],
          exclude: [...HEAVY, 'node_modules/**'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'heavy', include: HEAVY, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
