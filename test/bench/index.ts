// npm run bench: every benchmark, each printing a table and writing bench-results/<name>.json.
// Run one with: npm run bench -- emulator | lock-core | console | churn
import { benchChurn } from './churn';
import { benchConsole } from './console';
import { benchEmulator } from './emulator';
import { benchLockCore } from './lock-core';

const ALL: Record<string, () => Promise<unknown>> = {
  emulator: benchEmulator,
  'lock-core': benchLockCore,
  console: benchConsole,
  churn: benchChurn,
};
const chosen = process.argv.slice(2).filter((a) => a !== '--');
for (const name of chosen) {
  if (!ALL[name]) {
    console.error(`Unknown benchmark "${name}"; choose from: ${Object.keys(ALL).join(', ')}`);
    process.exit(2);
  }
}
for (const name of chosen.length ? chosen : Object.keys(ALL)) await ALL[name]!();
process.exit(0);
