#!/usr/bin/env node
// The lockboard command: runs the compiled CLI in dist/ (built by `npm install` in a checkout, shipped in the package).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/index.js', import.meta.url);
if (!existsSync(entry)) {
  console.error(
    'lockboard: the compiled CLI (dist/) is missing. In a checkout of the repository run "npm install" ' +
      '(or "npm run build:package") first.',
  );
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
