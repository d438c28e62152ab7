import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./', import.meta.url)),
      // Route tests import server modules directly; outside Next.js `server-only` would throw.
      'server-only': fileURLToPath(new URL('./test/helpers/server-only.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
