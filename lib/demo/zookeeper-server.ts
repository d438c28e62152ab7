// Debian's ZooKeeper started from its jar on loopback (no systemd, admin server off), for the demo and the tests.
// Ready when `srvr` says it is serving: `ruok` answers `imok` earlier, while requests are still refused
// (facts-coordination Part B §3.1).
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fourLetters } from '../lock/stores/zookeeper/sessions';
import { signalGroup, spawnGroup } from './children';

const JARS = '/usr/share/java';
const NEEDED = [
  'zookeeper.jar',
  'zookeeper-jute.jar',
  'slf4j-api.jar',
  'slf4j-nop.jar',
  'commons-cli.jar',
  'metrics-core.jar',
];

export const INSTALL_ZOOKEEPER = 'apt-get install -y --no-install-recommends zookeeper default-jre-headless';

/** The classpath of Debian's ZooKeeper, or null when it is not installed. */
export function zookeeperClasspath(dir = process.env.LOCKBOARD_ZOOKEEPER_JARS ?? JARS): string | null {
  const jars = NEEDED.map((j) => join(dir, j));
  return existsSync(jars[0]!) ? jars.filter((j) => existsSync(j)).join(':') : null;
}

/** Whether `srvr` says the server serves requests (`Mode: standalone`), not merely that it is up (`ruok`). */
export async function isServing(hostPort: string): Promise<boolean> {
  const answer = await fourLetters(hostPort, 'srvr', 500).catch(() => '');
  return /^Mode: /m.test(answer);
}

export interface ZooKeeperServer {
  port: number;
  hosts: string;
  stop(): Promise<void>;
  kill(): void;
}

/** `words`: the four-letter words the server answers (4lw.commands.whitelist); `cons` tells the verdict its sessions, `conf` and `srvr` whether the members read are the whole ensemble. */
export async function startZooKeeperServer(
  port: number,
  o: { tickMs?: number; words?: string; dataDir?: string } = {},
): Promise<ZooKeeperServer> {
  const cp = zookeeperClasspath();
  if (!cp) throw new Error(`ZooKeeper is not installed: ${INSTALL_ZOOKEEPER}`);
  // `dataDir`: the data kept there across starts (the demo's trail), else a directory of its own, removed at stop
  const dir = o.dataDir ?? mkdtempSync(join(tmpdir(), 'lockboard-zk-'));
  if (o.dataDir) mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'zoo.cfg'),
    [
      `tickTime=${o.tickMs ?? 2000}`,
      `dataDir=${dir}`,
      `clientPort=${port}`,
      'clientPortAddress=127.0.0.1',
      'admin.enableServer=false',
      `4lw.commands.whitelist=${o.words ?? 'srvr,ruok,cons,dump,conf'}`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawnGroup(
    'java',
    [
      '-Xmx128m',
      '-XX:TieredStopAtLevel=1',
      '-cp',
      cp,
      'org.apache.zookeeper.server.ZooKeeperServerMain',
      join(dir, 'zoo.cfg'),
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      signalGroup(child, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]);
      if (child.exitCode === null && child.signalCode === null) signalGroup(child, 'SIGKILL');
    }
    if (!o.dataDir) rmSync(dir, { recursive: true, force: true });
  };
  const hosts = `127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) break;
    if (await isServing(hosts)) return { port, hosts, stop, kill: () => void signalGroup(child, 'SIGKILL') };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`ZooKeeper did not start serving on ${hosts} within 10 s`);
}
