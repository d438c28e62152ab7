// A real ZooKeeper ensemble of `size` members on loopback (Debian's jar, QuorumPeerMain, each on free client, quorum
// and election ports, admin server off), for tests of what a source that lists fewer members cannot see. Ready once
// every member's `srvr` says it serves (leader or follower). Stopped by the test that started it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isServing, zookeeperClasspath, INSTALL_ZOOKEEPER } from '@/lib/demo/zookeeper-server';
import { freePort } from './browser';

export interface ZkEnsemble {
  /** Each member's client address, `127.0.0.1:port`, by server id 1…size. */
  members: string[];
  stop(): Promise<void>;
}

const config = (dir: string, client: number, peers: string[], words: string) =>
  [
    'tickTime=2000',
    'initLimit=10',
    'syncLimit=5',
    `dataDir=${dir}`,
    `clientPort=${client}`,
    'clientPortAddress=127.0.0.1',
    'admin.enableServer=false',
    `4lw.commands.whitelist=${words}`,
    ...peers,
    '',
  ].join('\n');

export async function startZkEnsemble(size = 3, words = 'srvr,ruok,cons,conf'): Promise<ZkEnsemble> {
  const cp = zookeeperClasspath();
  if (!cp) throw new Error(`ZooKeeper is not installed: ${INSTALL_ZOOKEEPER}`);
  const root = mkdtempSync(join(tmpdir(), 'lockboard-zk-ensemble-'));
  const ports: number[][] = [];
  for (let i = 0; i < size; i++) ports.push([await freePort(), await freePort(), await freePort()]);
  const peers = ports.map(([, quorum, election], i) => `server.${i + 1}=127.0.0.1:${quorum}:${election}`);
  const children: ChildProcess[] = ports.map(([client], i) => {
    const dir = join(root, `s${i + 1}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'myid'), `${i + 1}\n`);
    writeFileSync(join(dir, 'zoo.cfg'), config(dir, client!, peers, words));
    const args = ['-Xmx96m', '-XX:TieredStopAtLevel=1', '-cp', cp, 'org.apache.zookeeper.server.quorum.QuorumPeerMain'];
    return spawn('java', [...args, join(dir, 'zoo.cfg')], { stdio: 'ignore' });
  });
  const members = ports.map(([client]) => `127.0.0.1:${client}`);
  const stop = async () => {
    await Promise.all(
      children.map(async (c) => {
        if (c.exitCode !== null || c.signalCode !== null) return;
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGKILL');
        await exited;
      }),
    );
    rmSync(root, { recursive: true, force: true });
  };
  for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 250))) {
    if ((await Promise.all(members.map(isServing))).every(Boolean)) return { members, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The ZooKeeper ensemble ${members.join(',')} did not serve within 60 s`);
    }
  }
}
