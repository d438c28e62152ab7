#!/usr/bin/env node
// After `next build`: the standalone server (.next/standalone/server.js, what the container runs) serves static
// assets from its own directory, which Next.js leaves for the deployer to copy. Copy them, so `npm start`, the demo,
// the tests and the container all run the same server.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const standalone = join(root, '.next', 'standalone');
if (!existsSync(join(standalone, 'server.js'))) {
  console.error(
    'standalone-assets: .next/standalone/server.js is missing; run "next build" first (output: standalone).',
  );
  process.exit(1);
}
for (const [from, to] of [
  [join(root, '.next', 'static'), join(standalone, '.next', 'static')],
  [join(root, 'public'), join(standalone, 'public')],
]) {
  if (!existsSync(from)) continue;
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
}
console.log('standalone-assets: static files copied into .next/standalone');
