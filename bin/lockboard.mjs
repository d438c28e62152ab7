#!/usr/bin/env node
// The lockboard command. Runs the TypeScript sources through tsx, so `npx lockboard ...` works from a checkout.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../lib/cli/index.ts');
process.exitCode = await main(process.argv.slice(2));
