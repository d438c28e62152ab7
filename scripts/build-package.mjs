#!/usr/bin/env node
// Compiles the lock core, the emulator and the CLI to dist/ (ESM JavaScript + .d.ts) for the npm package.
// The sources import each other without extensions (as Next.js and tsx allow); Node's ESM loader and TypeScript's
// node16 resolution need the full path, so every relative specifier in the output is rewritten to the file it
// names ('./types' → './types.js', './formats' → './formats/index.js'). A specifier that matches no emitted file
// fails the build instead of producing a package that breaks at import time.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
if (!existsSync(tsc)) {
  console.error('build-package: TypeScript is not installed; run "npm install" in the repository first.');
  process.exit(1);
}
const compile = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (compile.status !== 0) {
  console.error('build-package: tsc failed; see the errors above.');
  process.exit(1);
}

const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*)\2/g;
const problems = [];

function resolveSpecifier(file, spec) {
  if (/\.(m?js|json)$/.test(spec)) return spec;
  const base = join(dirname(file), spec);
  if (existsSync(`${base}.js`)) return `${spec}.js`;
  if (existsSync(join(base, 'index.js'))) return `${spec}/index.js`;
  problems.push(`${relative(root, file)}: cannot resolve "${spec}"`);
  return spec;
}

function rewrite(file) {
  const text = readFileSync(file, 'utf8');
  const out = text.replace(
    SPECIFIER,
    (_m, lead, quote, spec) => `${lead}${quote}${resolveSpecifier(file, spec)}${quote}`,
  );
  if (out !== text) writeFileSync(file, out);
}

function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) walk(p);
    else if (p.endsWith('.js') || p.endsWith('.d.ts')) rewrite(p);
  }
}

walk(dist);
if (problems.length) {
  console.error(`build-package: unresolved imports in the output:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`build-package: compiled lib/ to ${relative(process.cwd(), dist) || 'dist'}`);
