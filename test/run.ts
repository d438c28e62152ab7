// npm test: builds the console when its sources changed, then runs every suite (unit, integration against the
// emulator, CLI processes, fault checker, browser end-to-end) in one vitest run that ends with "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { buildConsole, needsBuild } from '../lib/demo/console';

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
// The CLI tests run the compiled package (bin/lockboard.mjs → dist/), so dist/ is rebuilt from the sources first.
const pkg = spawnSync(process.execPath, ['scripts/build-package.mjs'], { stdio: 'inherit', env });
if (pkg.status !== 0) {
  console.error('The package build (scripts/build-package.mjs) failed; the CLI tests cannot run.');
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}
if (needsBuild()) {
  console.log('Building the console (npm run build) for the browser tests...');
  try {
    buildConsole();
  } catch (err) {
    console.error(`${(err as Error).message}; the browser tests cannot run.`);
    console.log('\n0 passed, 1 failed');
    process.exit(1);
  }
}
// Every project: core, heavy, and interop where its tools are installed (vitest.config.ts)
const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
