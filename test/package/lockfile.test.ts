// The committed lockfile is one `npm ci` accepts on a fresh clone on any platform: npm ci (dry run, offline, no
// scripts) in a temporary copy of package.json and package-lock.json; every optional platform binary of next,
// @tailwindcss/oxide and unrs-resolver locked (npm install on one platform once dropped the others); every package
// with an install script named in allowScripts (npm 11 warns about any that is not).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
interface Locked {
  version?: string;
  optionalDependencies?: Record<string, string>;
  hasInstallScript?: boolean;
}
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, Locked>;
};
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };

describe('the committed lockfile', () => {
  it('is accepted by npm ci as it is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lockboard-ci-'));
    try {
      for (const f of ['package.json', 'package-lock.json']) copyFileSync(join(ROOT, f), join(dir, f));
      const args = ['ci', '--dry-run', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'];
      const r = spawnSync('npm', args, { cwd: dir, encoding: 'utf8', timeout: 120_000 });
      const missing = (r.stderr ?? '').split('\n').filter((l) => /Missing|invalid|in sync/i.test(l));
      expect(r.status, `npm ci refuses the lockfile (run npm install and commit it):\n${missing.join('\n')}`).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it.each(['next', '@tailwindcss/oxide', 'unrs-resolver'])('locks every platform binary of %s', (name) => {
    const optional = Object.keys(lock.packages[`node_modules/${name}`]?.optionalDependencies ?? {});
    expect(optional.length, `${name} is in the lockfile with its optional dependencies`).toBeGreaterThan(3);
    const absent = optional.filter((dep) => !lock.packages[`node_modules/${dep}`]?.version);
    expect(absent, 'optional platform packages missing from package-lock.json (npm install, commit it)').toEqual([]);
  });

  it('names every package with an install script in allowScripts', () => {
    const scripted = Object.entries(lock.packages)
      .filter(([, p]) => p.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(scripted.length).toBeGreaterThan(0);
    expect(scripted.filter((n) => !(n in (pkg.allowScripts ?? {})))).toEqual([]);
  });
});
