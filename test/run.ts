// npm test: builds the console when its sources changed, then runs every suite (unit, integration against the
// emulator, CLI processes, fault checker, browser end-to-end) in one vitest run that ends with "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { needsBuild } from '../lib/demo/console';

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
if (needsBuild()) {
  console.log('Building the console (next build) for the browser tests...');
  const build = spawnSync('npx', ['next', 'build'], { stdio: 'inherit', env });
  if (build.status !== 0) {
    console.error('next build failed; the browser tests cannot run.');
    console.log('\n0 passed, 1 failed');
    process.exit(1);
  }
}
const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
