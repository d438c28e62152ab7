#!/usr/bin/env node
// Moves source files and rewrites every import that names them (relative or `@/`), keeping each specifier's style.
// Usage: node scripts/move-files.mjs MAPFILE   (lines "old/path.ts new/path.ts"; a folder moves with "old/ new/")
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = process.cwd();
const EXT = ['.ts', '.tsx', '.mjs', '.js', '.d.ts'];
const SCAN = ['lib', 'app', 'components', 'test', 'scripts', 'bin'];
const ROOT_FILES = ['instrumentation.ts', 'proxy.ts', 'next.config.mjs', 'vitest.config.ts'];

function walk(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && !e.name.startsWith('.')) walk(p, out);
    } else if (/\.(ts|tsx|mjs|js)$/.test(e.name)) out.push(relative(root, p));
  }
  return out;
}

function expandMap(lines, files) {
  const map = new Map();
  for (const line of lines) {
    const [from, to] = line.trim().split(/\s+/);
    if (!from || from.startsWith('#')) continue;
    if (from.endsWith('/')) {
      for (const f of files) if (f.startsWith(from)) map.set(f, to + f.slice(from.length));
    } else {
      if (!files.includes(from)) throw new Error(`no such file: ${from}`);
      map.set(from, to);
    }
  }
  return map;
}

function resolveFile(base) {
  if (existsSync(base) && statSync(base).isFile()) return { file: base, suffix: '' };
  for (const e of EXT) if (existsSync(base + e)) return { file: base + e, suffix: e };
  for (const e of EXT)
    if (existsSync(join(base, 'index' + e))) return { file: join(base, 'index' + e), suffix: '/index' + e };
  return null;
}

function specFor(fromFile, target, style) {
  // style: { alias, keepExt, index }
  let p = target;
  if (style.index) p = dirname(p);
  else if (!style.keepExt) p = p.replace(/(\.d)?\.(ts|tsx|mjs|js)$/, '');
  if (style.alias) return '@/' + p;
  let r = relative(dirname(fromFile), p);
  if (!r.startsWith('.')) r = './' + r;
  return r;
}

const files = [...SCAN.flatMap((d) => (existsSync(d) ? walk(d) : [])), ...ROOT_FILES.filter((f) => existsSync(f))];
const map = expandMap(readFileSync(process.argv[2], 'utf8').split('\n'), files);
const SPEC = /(['"])((?:\.\.?\/|@\/)[^'"\n]*)\1/g;
let changed = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const newFile = map.get(file) ?? file;
  const out = text.replace(SPEC, (whole, q, spec) => {
    const alias = spec.startsWith('@/');
    const base = alias ? spec.slice(2) : join(dirname(file), spec);
    const hit = resolveFile(base);
    if (!hit) return whole;
    const target = relative(root, hit.file);
    const newTarget = map.get(target) ?? target;
    if (newTarget === target && newFile === file) return whole;
    const style = {
      alias,
      keepExt: hit.suffix === '' && /\.(ts|tsx|mjs|js)$/.test(spec),
      index: hit.suffix.startsWith('/index'),
    };
    // an index import whose folder is not moved whole: name the file
    if (style.index && !newTarget.endsWith(hit.suffix.slice(1))) style.index = false;
    return q + specFor(newFile, newTarget, style) + q;
  });
  if (out !== text) {
    writeFileSync(file, out);
    changed++;
  }
}
for (const [from, to] of map) {
  execFileSync('mkdir', ['-p', dirname(to)]);
  execFileSync('git', ['mv', from, to]);
}
console.log(`moved ${map.size} files, rewrote imports in ${changed}`);
