#!/usr/bin/env node
// Fails on an export no other file imports (part of `npm run lint`): a name exported from lib/, app/ or components/
// that nothing imports is dead, or used only in its own file, where it need not be exported. Imports are read from
// every source and test file: named, default, namespace (`* as`), re-exports, `export *`, dynamic `import()` and
// `typeof import()` (the last three use the whole module). Public entry points export for callers outside the tree
// and are allowed: the package's subpaths (package.json "exports"), the CLI's and the emulator's mains, Next.js's
// route and page files, and the configuration files the tools load. Usage: node scripts/check-exports.mjs [--list]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

const root = process.cwd();
const SCAN = ['lib', 'app', 'components', 'test', 'scripts', 'bin'];
const ROOT_FILES = ['instrumentation.ts', 'proxy.ts', 'next.config.mjs', 'vitest.config.ts'];
const CHECKED = /^(lib|app|components)\//;
const EXT = ['.ts', '.tsx', '.mjs', '.js'];

/** Files whose exports are read by something outside the tree (a package's caller, Next.js, a tool). */
const ENTRY_POINTS = [
  /^lib\/emulator\/(index|main)\.ts$/,
  /^lib\/cli\/(index|main)\.ts$/,
  /^lib\/demo\/index\.ts$/,
  // Next.js loads these by name: pages, layouts, routes and the files of the app router's conventions
  /^app\/(.*\/)?(page|layout|route|loading|error|global-error|not-found|forbidden|unauthorized|default|template|icon|opengraph-image|manifest|robots|sitemap)\.tsx?$/,
];

/** Exports allowed though no other file imports them yet, each with why (`file:name`). */
const ALLOWED = new Map([
  // the return type of an exported function (lib/cli/ls-query.ts): the package's .d.ts must be able to name it
  ['lib/lock/query/query.ts:QueryResult', 'named in a declaration file'],
  // #60 is writing the holds API (lockboard hold / unhold) in lib/lock/hold.ts now: its callers land with it
  ['lib/lock/hold.ts:EndRequest', '#60 in progress'],
  ['lib/lock/hold.ts:HoldRequest', '#60 in progress'],
  ['lib/lock/hold.ts:storeHolds', '#60 in progress'],
  ['lib/lock/hold.ts:holdFormat', '#60 in progress'],
  ['lib/cli/hold.ts:HOLD_HELP', '#60 in progress'],
  ['lib/cli/hold.ts:UNHOLD_HELP', '#60 in progress'],
]);

function walk(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && !e.name.startsWith('.')) walk(p, out);
    } else if (/\.(ts|tsx|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(relative(root, p));
  }
  return out;
}

function packageEntries() {
  const exportsField = JSON.parse(readFileSync('package.json', 'utf8')).exports ?? {};
  return Object.values(exportsField)
    .map((e) => (typeof e === 'object' ? e.import : undefined))
    .filter((p) => typeof p === 'string' && p.startsWith('./dist/'))
    .map((p) => 'lib/' + p.slice('./dist/'.length).replace(/\.js$/, '.ts'));
}

function resolve(fromFile, spec) {
  let base;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('.')) base = join(dirname(fromFile), spec);
  else return null;
  base = base.replace(/\.js$/, '');
  if (existsSync(base) && statSync(base).isFile()) return base;
  for (const e of EXT) if (existsSync(base + e)) return base + e;
  for (const e of EXT) if (existsSync(join(base, 'index' + e))) return join(base, 'index' + e);
  return null;
}

const hasExport = (node) => ts.getModifiers?.(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
const isDefault = (node) => ts.getModifiers?.(node)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword) ?? false;

/** What one file exports (name → line) and what it uses of others (file → names, or '*' for the whole module). */
function readFile(file) {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const exported = new Map();
  const uses = new Map();
  const note = (spec, name) => {
    const target = resolve(file, spec);
    if (!target) return;
    if (!uses.has(target)) uses.set(target, new Set());
    uses.get(target).add(name);
  };
  const line = (node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  // `import('m')` whose names are read where it is awaited: destructured, or one property of it
  const named = new Set();
  const importOf = (expr) => {
    let e = expr;
    while (e && (ts.isAwaitExpression(e) || ts.isParenthesizedExpression(e))) e = e.expression;
    return e &&
      ts.isCallExpression(e) &&
      e.expression.kind === ts.SyntaxKind.ImportKeyword &&
      e.arguments[0] &&
      ts.isStringLiteralLike(e.arguments[0])
      ? e
      : null;
  };
  const bindNames = (pattern, call) => {
    if (!ts.isObjectBindingPattern(pattern) || pattern.elements.some((el) => el.dotDotDotToken)) return;
    named.add(call);
    for (const el of pattern.elements) note(call.arguments[0].text, (el.propertyName ?? el.name).getText(sf));
  };
  const readNamed = (node) => {
    if (ts.isVariableDeclaration(node) && node.initializer) {
      const call = importOf(node.initializer);
      if (call) return bindNames(node.name, call);
      // const [{ a }, { b }] = await Promise.all([import('x'), import('y')])
      let init = node.initializer;
      while (ts.isAwaitExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
      if (
        ts.isArrayBindingPattern(node.name) &&
        ts.isCallExpression(init) &&
        init.getText(sf).startsWith('Promise.all(')
      ) {
        const [list] = init.arguments;
        if (list && ts.isArrayLiteralExpression(list))
          node.name.elements.forEach((el, i) => {
            const c = importOf(list.elements[i]);
            if (c && !ts.isOmittedExpression(el)) bindNames(el.name, c);
          });
      }
    } else if (ts.isPropertyAccessExpression(node)) {
      const call = importOf(node.expression);
      if (call) {
        named.add(call);
        note(call.arguments[0].text, node.name.text);
      }
    }
  };
  const visit = (node) => {
    readNamed(node);
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text;
      const clause = node.importClause;
      if (!clause) note(spec, '*');
      else {
        if (clause.name) note(spec, 'default');
        const b = clause.namedBindings;
        if (b && ts.isNamespaceImport(b)) note(spec, '*');
        else if (b) for (const el of b.elements) note(spec, (el.propertyName ?? el.name).text);
      }
    } else if (ts.isExportDeclaration(node)) {
      const spec = node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : null;
      if (!node.exportClause) {
        if (spec) note(spec, '*');
      } else if (ts.isNamespaceExport(node.exportClause)) {
        if (spec) note(spec, '*');
        exported.set(node.exportClause.name.text, line(node));
      } else
        for (const el of node.exportClause.elements) {
          exported.set(el.name.text, line(el));
          if (spec) note(spec, (el.propertyName ?? el.name).text);
        }
    } else if (ts.isExportAssignment(node)) exported.set('default', line(node));
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && !named.has(node)) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) note(arg.text, '*');
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) note(arg.literal.text, '*');
    } else if (node.parent === sf && hasExport(node)) {
      if (isDefault(node)) exported.set('default', line(node));
      else if (ts.isVariableStatement(node))
        for (const d of node.declarationList.declarations) {
          if (ts.isIdentifier(d.name)) exported.set(d.name.text, line(d));
        }
      else if (node.name && ts.isIdentifier(node.name)) exported.set(node.name.text, line(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { exported, uses };
}

const files = [...SCAN.flatMap((d) => (existsSync(d) ? walk(d) : [])), ...ROOT_FILES.filter((f) => existsSync(f))];
const read = new Map(files.map((f) => [f, readFile(f)]));
const used = new Map();
for (const [file, { uses }] of read)
  for (const [target, names] of uses) {
    if (target === file) continue;
    if (!used.has(target)) used.set(target, new Set());
    for (const n of names) used.get(target).add(n);
  }

const entries = new Set(packageEntries());
const dead = [];
for (const [file, { exported }] of read) {
  if (!CHECKED.test(file) || entries.has(file) || ENTRY_POINTS.some((re) => re.test(file))) continue;
  const names = used.get(file) ?? new Set();
  if (names.has('*')) continue;
  for (const [name, at] of exported)
    if (!names.has(name) && !ALLOWED.has(`${file}:${name}`)) dead.push(`${file}:${at} ${name}`);
}

if (dead.length > 0) {
  console.error(
    `check-exports: ${dead.length} export${dead.length === 1 ? '' : 's'} no other file imports (drop \`export\`, or ` +
      `delete what nothing uses):`,
  );
  for (const d of dead.sort()) console.error(`  ${d}`);
  process.exit(1);
}
console.log(`check-exports: every export of ${read.size} files is imported elsewhere (or is an entry point).`);
