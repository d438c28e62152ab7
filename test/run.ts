// npm test: builds the package and the console when their sources changed, then runs every suite (unit, integration
// against the emulator and the servers, CLI processes, fault checker, browser end-to-end) in one vitest run that ends
// with each project's time and "N passed, N failed" (test/summary-reporter.ts).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildConsole, needsBuild } from '../lib/demo/console';

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
const ROOT = join(import.meta.dirname, '..');
/** Written into dist/ after a build: the hash of what it was built from. */
const PACKAGE_STAMP = join(ROOT, 'dist', '.sources-hash');

function fail(message: string): never {
  console.error(message);
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

/** Every file the package build reads: lib/ (tsc follows imports across it), its tsconfig, the script, the lockfile. */
function packageSourcesHash(): string {
  const hash = createHash('sha256');
  const add = (p: string): void => {
    if (!existsSync(p)) return;
    if (!statSync(p).isDirectory()) return void hash.update(p).update(readFileSync(p));
    for (const name of readdirSync(p).sort()) add(join(p, name));
  };
  for (const p of ['lib', 'tsconfig.build.json', 'scripts/build-package.mjs', 'package-lock.json']) add(join(ROOT, p));
  return hash.digest('hex');
}

// The CLI tests run the compiled package (bin/lockboard.mjs → dist/): rebuilt only when its sources changed.
const sources = packageSourcesHash();
if (!existsSync(PACKAGE_STAMP) || readFileSync(PACKAGE_STAMP, 'utf8') !== sources) {
  const pkg = spawnSync(process.execPath, ['scripts/build-package.mjs'], { stdio: 'inherit', env, cwd: ROOT });
  if (pkg.status !== 0) fail('The package build (scripts/build-package.mjs) failed; the CLI tests cannot run.');
  writeFileSync(PACKAGE_STAMP, sources);
}
if (needsBuild()) {
  console.log('Building the console (npm run build) for the browser tests...');
  try {
    buildConsole();
  } catch (err) {
    fail(`${(err as Error).message}; the browser tests cannot run.`);
  }
}
// Every project: unit, servers, stacks, heavy, and interop where its tools are installed (vitest.config.ts)
const result = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
