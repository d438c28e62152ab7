// The demo's command line: its ports (each with the flag that moves it) and its data directory.
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/** Flag → default port; `port` is the console's. etcd's peers listen on the port after --etcd-port. */
export const PORT_FLAGS = {
  port: '3000',
  'emulator-port': '4443',
  's3-port': '4444',
  'redis-port': '6390',
  'kube-port': '6443',
  'pg-port': '5439',
  'mysql-port': '3316',
  'dynamodb-port': '4445',
  'zookeeper-port': '2191',
  'etcd-port': '2389',
} as const;

export interface DemoOptions {
  ports: Record<keyof typeof PORT_FLAGS, number>;
  dataDir: string;
}

const HELP = `Usage: npm run demo -- [--port 3000] [--emulator-port 4443] [--s3-port 4444] [--redis-port 6390] [--pg-port 5439] [--mysql-port 3316] [--dynamodb-port 4445] [--kube-port 6443] [--zookeeper-port 2191] [--etcd-port 2389] [--data-dir .data/demo]

Starts the GCS and S3 emulator, a Redis, a PostgreSQL, a MariaDB, a ZooKeeper and an etcd of its own (when they are installed), simulated lock holders
and the Lockboard console. Ctrl-C stops everything.`;

/** The options, or the exit code when there is nothing to run (help, or a usage error already printed). */
export function parseOptions(args: string[]): DemoOptions | number {
  let values;
  try {
    const portOptions = Object.fromEntries(
      Object.entries(PORT_FLAGS).map(([flag, port]) => [flag, { type: 'string' as const, default: port }]),
    );
    ({ values } = parseArgs({
      args,
      options: {
        ...portOptions,
        'data-dir': { type: 'string', default: join(import.meta.dirname, '..', '..', '.data', 'demo') },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    console.error(`demo: ${(err as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const given = values as Record<string, unknown>;
  const ports = Object.fromEntries(Object.keys(PORT_FLAGS).map((flag) => [flag, Number(given[flag])]));
  if (!Object.values(ports).every((p) => Number.isInteger(p) && p > 0 && p < 65535)) {
    console.error('demo: --port and every --*-port must be port numbers (1-65534)');
    return 2;
  }
  return { ports: ports as DemoOptions['ports'], dataDir: String(values['data-dir']) };
}
