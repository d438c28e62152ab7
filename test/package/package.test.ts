// The npm package as a user gets it: `npm pack`, installed into an empty project, used from plain Node ESM, from a
// type-checked TypeScript consumer, and through `npx lockboard` against `lockboard emulator`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
let dir = '';
let project = '';

function run(cmd: string, args: string[], cwd: string, timeout = 180_000) {
  const result = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, npm_config_yes: 'true' },
  });
  return { code: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'lock', 'index.js')))
    throw new Error('dist/ is missing: run "npm run build:package" (npm test does this first)');
  dir = mkdtempSync(join(tmpdir(), 'lockboard-pkg-'));
  const packed = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  const tarball = join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
  project = join(dir, 'consumer');
  run('mkdir', ['-p', project], dir);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const installed = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], project, 300_000);
  expect(installed.code, installed.stderr).toBe(0);
}, 400_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the npm package installed into an empty project', () => {
  it('ships compiled JavaScript with types, and pulls only the lock core’s runtime dependencies', () => {
    const installed = join(project, 'node_modules', 'lockboard');
    const files = (sub: string) => readdirSync(join(installed, sub));
    expect(files('dist/lock')).toContain('index.d.ts');
    expect(files('dist/lock').some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toBe(false);
    expect(existsSync(join(installed, 'app'))).toBe(false);
    const modules = readdirSync(join(project, 'node_modules'));
    expect(modules).toContain('@google-cloud');
    for (const unwanted of [
      'next',
      'react',
      'react-dom',
      'next-auth',
      '@tanstack',
      'recharts',
      'tsx',
      'typescript',
      'vitest',
      'zod',
    ])
      expect(modules, `${unwanted} must not be installed for a library consumer`).not.toContain(unwanted);
  }, 120_000);

  it('is imported from plain Node ESM: a lock taken and released against lockboard/emulator', () => {
    writeFileSync(
      join(project, 'plain.mjs'),
      `import { Storage } from '@google-cloud/storage';
import { acquireLock, getLock, withLock } from 'lockboard';
import { startEmulator } from 'lockboard/emulator';
const emulator = await startEmulator({ buckets: ['b'] });
const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'local' });
const generation = await withLock({ storage, bucket: 'b', name: 'locks/job' }, async (lock) => {
  const seen = await getLock({ storage, bucket: 'b', name: 'locks/job' });
  if (seen?.generation !== lock.generation) throw new Error('inspect disagrees with the holder');
  return lock.generation;
});
const after = await getLock({ storage, bucket: 'b', name: 'locks/job' });
const lock = await acquireLock({ storage, bucket: 'b', name: 'locks/job', timeoutMs: 0 });
await lock.release();
console.log(JSON.stringify({ generation, after: after?.health ?? 'absent', requests: emulator.requests.entries.length }));
await emulator.close();
`,
    );
    const result = run(process.execPath, ['plain.mjs'], project, 60_000);
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout.trim()) as { generation: string; after: string; requests: number };
    expect(out.generation).toMatch(/^\d+$/);
    expect(out.after).toBe('absent');
    expect(out.requests).toBeGreaterThan(3);
  }, 120_000);

  it('type-checks a TypeScript consumer (node16 resolution) and rejects a wrong use of the types', () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'node16',
          moduleResolution: 'node16',
          target: 'es2022',
          strict: true,
          noEmit: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
        },
        include: ['consumer.ts'],
      }),
    );
    const good = `import { Storage } from '@google-cloud/storage';
import { withLock, LockLostError, type LockInfo } from 'lockboard';
import { startEmulator, type Emulator } from 'lockboard/emulator';
const emulator: Emulator = await startEmulator({ buckets: ['b'] });
const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'local' });
const token: string = await withLock({ storage, bucket: 'b', name: 'locks/x', ttlMs: 30_000 }, async (lock) => {
  lock.signal.addEventListener('abort', () => console.error(lock.signal.reason instanceof LockLostError));
  return lock.generation;
});
export const seen: (info: LockInfo) => string = (info) => info.health;
console.log(token);
`;
    const wrong = `${good}export const health: number = seen({} as LockInfo);
`;
    writeFileSync(join(project, 'consumer.ts'), good);
    const ok = run(process.execPath, [tsc, '-p', '.'], project, 120_000);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    // The types are real, not `any`: a misspelled option and a number where a string is due are both errors.
    writeFileSync(join(project, 'consumer.ts'), wrong.replace('ttlMs: 30_000', 'ttl: 30_000'));
    const bad = run(process.execPath, [tsc, '-p', '.'], project, 120_000);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toContain("'ttl' does not exist");
    expect(bad.stdout).toContain("not assignable to type 'number'");
  }, 300_000); // two tsc runs over the package's types: tens of seconds on a busy machine

  it('runs `npx lockboard run` against `npx lockboard emulator`, and prints its version', async () => {
    const version = run('npx', ['--no-install', 'lockboard', '--version'], project, 60_000);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);

    const emulator = spawn('npx', ['--no-install', 'lockboard', 'emulator', '--port', '0', '--bucket', 'ci'], {
      cwd: project,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`the emulator did not start:\n${out}`)), 30_000);
        emulator.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        emulator.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      });
      const result = run(
        'npx',
        [
          '--no-install',
          'lockboard',
          'run',
          'nightly',
          '--bucket',
          'ci',
          '--endpoint',
          url,
          '--',
          process.execPath,
          '-e',
          'console.log("fencing token " + process.env.LOCKBOARD_FENCING_TOKEN)',
        ],
        project,
        60_000,
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/fencing token \d+/);
      const status = run(
        'npx',
        ['--no-install', 'lockboard', 'status', 'nightly', '--bucket', 'ci', '--endpoint', url],
        project,
        60_000,
      );
      expect(status.code, status.stderr).toBe(10); // released: free
    } finally {
      process.kill(-emulator.pid!, 'SIGTERM');
    }
  }, 180_000);
});
