// A real kube-apiserver 1.20.2 for tests: built once per machine from Debian's `kubernetes` source package by
// scripts/kube-apiserver.sh (cached outside the repo), started here on Debian's etcd on free loopback ports, with a
// token and a kubeconfig kubectl and @kubernetes/client-node both read. Also the client-go leader-election candidate
// compiled from the same tree. Each is stopped by the test that started it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiserverArgs, KUBE_BIN } from '@/lib/demo/kube-server';
import { freePort } from './browser';
import { startCandidate, type Candidate } from './kube-candidate';
import { delay } from './requests';

export { KUBE_CACHE } from '@/lib/demo/kube-server';
export const KUBE_APISERVER = join(KUBE_BIN, 'kube-apiserver');
export const KUBE_LEADER = join(KUBE_BIN, 'kube-leader');
export type { Candidate } from './kube-candidate';

export function requireKube(): void {
  for (const bin of [KUBE_APISERVER, KUBE_LEADER])
    if (!existsSync(bin))
      throw new Error(
        `${bin} is missing: build the kube-apiserver and the client-go candidate once with "scripts/kube-apiserver.sh" ` +
          "(Debian's kubernetes source package and golang-go, about 6 minutes of one core).",
      );
  for (const [tool, pkg] of [
    ['etcd', 'etcd-server'],
    ['kubectl', 'kubectl'],
  ] as const)
    if (spawnSync(tool, ['--version']).error && spawnSync(tool, ['version', '--client']).error)
      throw new Error(`These tests need ${tool}: apt-get install -y ${pkg}`);
}

async function until(what: string, ok: () => Promise<boolean>, ms: number, child: ChildProcess): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if (await ok().catch(() => false)) return;
    await delay(100);
  }
  throw new Error(`${what} was not ready within ${ms} ms`);
}

/** GET /readyz in this process: polling with kubectl cost a Go process start (~50 ms of CPU) every 100 ms. */
function answersReady(port: number, token: string): Promise<boolean> {
  const headers = { authorization: `Bearer ${token}` };
  return new Promise((resolve, reject) => {
    const probe = httpsGet({ host: '127.0.0.1', port, path: '/readyz', rejectUnauthorized: false, headers }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    probe.once('error', reject).setTimeout(1_000, () => probe.destroy(new Error('no answer within 1 s')));
  });
}

export interface TestKube {
  server: string;
  kubeconfig: string;
  env: Record<string, string>;
  kubectl(args: string[], input?: string): { code: number; stdout: string; stderr: string };
  /** etcdctl on the apiserver's etcd (e.g. `compact`). */
  etcdctl(args: string[]): { code: number; stdout: string; stderr: string };
  /** A copy of the kubeconfig that reaches the apiserver at `server` (a proxy in front of it). */
  kubeconfigAt(server: string): string;
  /** A client-go LeaseLock candidate (default: 15 s lease, 10 s renew deadline, 1 s retry period). */
  candidate(o: {
    namespace: string;
    name: string;
    id: string;
    retry?: string;
    lease?: string;
    renewDeadline?: string;
  }): Candidate;
  stop(): Promise<void>;
}

/**
 * `rbac`: authorize with RBAC (the admin token is system:masters) instead of allowing everything. `watchCache: false`:
 * watches are served by etcd itself, so one resumed from a compacted resourceVersion gets 410 Gone at once.
 */
export async function startKube(o: { rbac?: boolean; watchCache?: boolean } = {}): Promise<TestKube> {
  requireKube();
  const dir = mkdtempSync(join(tmpdir(), 'lockboard-kube-'));
  const [client, peer, secure] = [await freePort(), await freePort(), await freePort()];
  const etcd = spawn(
    'etcd',
    [
      '--name',
      't',
      '--data-dir',
      join(dir, 'etcd'),
      '--listen-client-urls',
      `http://127.0.0.1:${client}`,
      '--advertise-client-urls',
      `http://127.0.0.1:${client}`,
      '--listen-peer-urls',
      `http://127.0.0.1:${peer}`,
      '--initial-advertise-peer-urls',
      `http://127.0.0.1:${peer}`,
      '--initial-cluster',
      `t=http://127.0.0.1:${peer}`,
    ],
    { stdio: 'ignore' },
  );
  const children: ChildProcess[] = [etcd];
  const stop = async () => {
    for (const c of children.reverse()) if (c.exitCode === null) c.kill('SIGKILL');
    await delay(50);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until('etcd', async () => (await fetch(`http://127.0.0.1:${client}/health`)).ok, 15_000, etcd);
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(join(dir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const token = randomBytes(16).toString('hex');
    writeFileSync(join(dir, 'tokens.csv'), `${token},admin,admin-uid,system:masters\n`);
    const apiserver = spawn(
      KUBE_APISERVER,
      [
        ...apiserverArgs({ etcd: `http://127.0.0.1:${client}`, etcdPrefix: '/kas', port: secure, dir, rbac: o.rbac }),
        ...(o.watchCache === false ? ['--watch-cache=false'] : []),
      ],
      { stdio: 'ignore' },
    );
    children.push(apiserver);
    const server = `https://127.0.0.1:${secure}`;
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'current-context: test',
        'clusters:',
        '- name: test',
        '  cluster:',
        `    server: ${server}`,
        '    insecure-skip-tls-verify: true',
        'users:',
        '- name: admin',
        '  user:',
        `    token: ${token}`,
        'contexts:',
        '- name: test',
        '  context:',
        '    cluster: test',
        '    user: admin',
        '    namespace: default',
        '- name: other',
        '  context:',
        '    cluster: test',
        '    user: admin',
        '    namespace: kube-system',
        '',
      ].join('\n'),
    );
    const env = { KUBECONFIG: kubeconfig };
    const run = (tool: string, args: string[], input?: string) => {
      const r = spawnSync(tool, args, { env: { ...process.env, ...env }, input, encoding: 'utf8' });
      return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
    };
    const kubectl = (args: string[], input?: string) => run('kubectl', args, input);
    await until('kube-apiserver', () => answersReady(secure, token), 60_000, apiserver);
    // a bare apiserver has only the default namespace: create the ones real clusters have
    kubectl(['create', 'namespace', 'kube-node-lease']);
    return {
      server,
      kubeconfig,
      env,
      kubectl,
      etcdctl: (args) => run('etcdctl', [`--endpoints=http://127.0.0.1:${client}`, ...args]),
      kubeconfigAt(at) {
        const file = join(dir, `kubeconfig-${randomBytes(4).toString('hex')}`);
        writeFileSync(file, readFileSync(kubeconfig, 'utf8').replace(server, at));
        return file;
      },
      candidate: (o) => startCandidate(KUBE_LEADER, kubeconfig, o, children),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
