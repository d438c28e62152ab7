import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { hasTool, TOOL_SUITES } from './test/helpers/tools.ts';

const HEAVY = ['test/e2e/**/*.test.ts', 'test/fault/**/*.test.ts', 'test/package/**/*.test.ts'];
// Whole stacks: every demo server with the console (ZooKeeper killed under it), etcd + kube-apiserver per file; and
// the bulk measurements (100 000 locks listed through a slow reader, indexed in a process of their own)
const STACKS = [
  'test/demo/**/*.test.ts',
  'test/kubernetes/**/*.test.ts',
  'test/cli/ls-rss.test.ts',
  'test/redis/index-memory.test.ts',
];
// Suites that drive tools npm does not install (gcloud, Google's Pub/Sub emulator, Terraform): run where found;
// the summary line names the others (test/helpers/tools.ts)
const INTEROP = TOOL_SUITES.filter((s) => hasTool(s.tool)).map((s) => s.file);

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
    // Tests with protocol deadlines (tens of milliseconds) run first, two files at a time; then the whole stacks (the
    // demo, Kubernetes), two at a time; the CPU-heavy suites (Chromium with a Next.js server, the multi-process fault
    // checker) last, one at a time, so neither steals the CPU from a timing assertion.
    projects: [
      {
        extends: true,
        test: {
          name: 'core',
          include: ['test/**/*.test.ts'],
          exclude: [...HEAVY, ...STACKS, 'test/interop/**', 'node_modules/**'],
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'stacks', include: STACKS, sequence: { groupOrder: 1 } } },
      {
        extends: true,
        test: { name: 'heavy', include: HEAVY, fileParallelism: false, sequence: { groupOrder: 2 } },
      },
      ...(INTEROP.length
        ? [
            {
              extends: true as const,
              test: {
                name: 'interop',
                include: INTEROP,
                fileParallelism: false,
                testTimeout: 180_000,
                sequence: { groupOrder: 3 },
              },
            },
          ]
        : []),
    ],
  },
});
