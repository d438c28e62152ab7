// The README's account of the package's dependencies matches package.json: every listed runtime dependency is named
// with what uses it, and the library (dist: lib/lock, lib/cli, lib/emulator) never imports one the README says it
// does not load.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
const readme = readFileSync(join(root, 'README.md'), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

describe('the README on dependencies', () => {
  it('names every runtime dependency, and the library never imports one it says is the console’s', () => {
    const deps = Object.keys(pkg.dependencies ?? {});
    for (const dep of deps) expect(readme, dep).toContain(`\`${dep}\``);
    expect(readme).not.toMatch(/only runtime dependency/);
    const library = ['lock', 'cli', 'emulator'].flatMap((d) => sources(join(root, 'lib', d)));
    for (const dep of deps)
      for (const file of library) expect(readFileSync(file, 'utf8'), file).not.toMatch(new RegExp(`from '${dep}'`));
  });
});
