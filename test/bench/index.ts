// npm run bench: every benchmark, each printing a table and writing bench-results/<name>.json.
// Run one with: npm run bench -- emulator | lock-core | handover | formats | console | churn | cli-startup | events | s3 | redis | postgres | dynamodb | live | live-soak | ls | untrusted
import { benchChurn } from './churn';
import { benchCliStartup } from './cli-startup';
import { benchDynamodb } from './dynamodb';
import { spawnSync } from 'node:child_process';
import { benchEmulator } from './emulator';
import { benchFormats } from './formats';
import { benchHandover } from './handover';
import { benchLive } from './live';
import { benchLiveSoak } from './live-soak';
import { benchLockCore } from './lock-core';
import { benchLs } from './ls';
import { benchPostgres } from './postgres';
import { benchRedis } from './redis';
import { benchS3 } from './s3';
import { benchUntrusted } from './untrusted';

const ALL: Record<string, () => Promise<unknown>> = {
  emulator: benchEmulator,
  'lock-core': benchLockCore,
  handover: benchHandover,
  formats: benchFormats,
  console: async () => {
    // The console's server modules import `server-only`, which resolves to an empty module under react-server.
    const r = spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'test/bench/console.ts'], {
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error('the console benchmark failed');
  },
  churn: benchChurn,
  events: async () => {
    // The route imports server modules (`server-only` resolves to an empty module under react-server)
    const r = spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'test/bench/events.ts'], {
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error('the events benchmark failed');
  },
  'cli-startup': benchCliStartup,
  s3: benchS3,
  redis: benchRedis,
  postgres: benchPostgres,
  dynamodb: benchDynamodb,
  live: benchLive,
  'live-soak': benchLiveSoak,
  ls: benchLs,
  untrusted: benchUntrusted,
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
