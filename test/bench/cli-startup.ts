// CLI start-up: the compiled package (bin/lockboard.mjs → dist/) against the TypeScript sources through tsx, as
// `npx lockboard` ran before the package was compiled. Median and p90 wall time of 15 runs of `--version` and of
// `status --help` (which loads every command module).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { printTable, quantile, round, writeJson } from './report';

const RUNS = 15;

const TSX_ENTRY = `const { main } = await import('./lib/cli/index.ts'); process.exitCode = await main(process.argv.slice(1));`;
const VARIANTS: Record<string, (args: string[]) => string[]> = {
  compiled: (args) => ['bin/lockboard.mjs', ...args],
  tsx: (args) => ['--import', 'tsx', '--input-type=module', '-e', TSX_ENTRY, '--', ...args],
};

function time(argv: string[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8' });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`node ${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

export async function benchCliStartup(): Promise<void> {
  if (!existsSync('dist/cli/index.js')) throw new Error('dist/ is missing: run "npm run build:package" first');
  const rows: Record<string, string | number>[] = [];
  for (const args of [['--version'], ['status', '--help']]) {
    for (const [variant, argv] of Object.entries(VARIANTS)) {
      time(argv(args)); // warm the file cache
      const samples = Array.from({ length: RUNS }, () => time(argv(args)));
      rows.push({
        command: `lockboard ${args.join(' ')}`,
        variant,
        runs: RUNS,
        'median ms': round(quantile(samples, 0.5)),
        'p90 ms': round(quantile(samples, 0.9)),
      });
    }
  }
  printTable('CLI start-up: compiled package vs TypeScript through tsx', rows);
  writeJson('cli-startup', rows);
}
