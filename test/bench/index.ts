// npm run bench: every benchmark, each printing a table and writing bench-results/<name>.json.
// Run one with: npm run bench -- scale | verdicts | scale-azure | scale-mysql | scale-console | scale-demo | emulator | lock-core | handover | formats | console | churn | cli-startup | discover | events | s3 | redis | postgres | dynamodb | kubernetes | live | live-soak | ls | ls-rss | files | zookeeper | etcd | truth | faults | untrusted | untrusted-etcd
import { benchChurn } from './churn';
import { benchCliStartup } from './cli-startup';
import { benchDiscover } from './discover';
import { benchDynamodb } from './dynamodb';
import { spawnSync } from 'node:child_process';
import { benchEmulator } from './emulator';
import { benchFaults } from './faults';
import { benchFiles } from './files';
import { benchEtcd } from './etcd';
import { benchFormats } from './formats';
import { benchHandover } from './handover';
import { benchKubernetes } from './kubernetes';
import { benchLive } from './live';
import { benchLiveSoak } from './live-soak';
import { benchLockCore } from './lock-core';
import { benchLs } from './ls';
import { benchLsRss } from './ls-rss';
import { benchPostgres } from './postgres';
import { benchRedis } from './redis';
import { benchS3 } from './s3';
import { benchAzure } from './scale-azure';
import { benchMysql } from './scale-mysql';
import { benchUntrusted } from './untrusted';
import { benchUntrustedEtcd } from './untrusted-etcd';
import { benchTruth } from './truth';
import { benchZooKeeper } from './zookeeper';

const ALL: Record<string, () => Promise<unknown>> = {
  'scale-console': async () => (await import('./scale-console')).benchScaleConsole(),
  'scale-demo': async () => (await import('./scale-demo')).benchScaleDemo(),
  scale: async () => {
    // the index of a million locks: a larger heap, and gc exposed for the bytes-per-lock figure
    const r = spawnSync(
      process.execPath,
      ['--max-old-space-size=6144', '--expose-gc', '--import', 'tsx', 'test/bench/scale-main.ts'],
      { stdio: 'inherit' },
    );
    if (r.status !== 0) throw new Error('the scale benchmark failed');
  },
  verdicts: async () => {
    // the index of a million judged locks: a larger heap
    const r = spawnSync(
      process.execPath,
      ['--max-old-space-size=6144', '--import', 'tsx', 'test/bench/verdicts-main.ts'],
      { stdio: 'inherit' },
    );
    if (r.status !== 0) throw new Error('the verdicts benchmark failed');
  },
  'scale-azure': benchAzure,
  'scale-mysql': benchMysql,
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
  discover: benchDiscover,
  s3: benchS3,
  redis: benchRedis,
  postgres: benchPostgres,
  dynamodb: benchDynamodb,
  kubernetes: benchKubernetes,
  etcd: benchEtcd,
  live: benchLive,
  'live-soak': benchLiveSoak,
  ls: benchLs,
  'ls-rss': benchLsRss,
  truth: benchTruth,
  faults: benchFaults,
  files: benchFiles,
  zookeeper: benchZooKeeper,
  untrusted: benchUntrusted,
  'untrusted-etcd': benchUntrustedEtcd,
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
