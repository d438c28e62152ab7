// The demo's kube-apiserver, where scripts/kube-apiserver.sh has built one on this machine (cached outside the repo):
// Debian's etcd and the apiserver on loopback ports, a token, and a kubeconfig under the demo's data directory.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { signalGroup, spawnGroup } from './children';
import { sleep } from './sleep';

/** Where scripts/kube-apiserver.sh caches its build (the demo and the tests run these binaries). */
export const KUBE_CACHE =
  process.env.LOCKBOARD_KUBE_CACHE ?? join(homedir(), '.cache', 'lockboard', 'kubernetes-1.20.2');
export const KUBE_BIN = join(KUBE_CACHE, 'bin');

/**
 * The kube-apiserver's flags on loopback: its certificates, token file and service-account keys in `dir`, on the
 * etcd at `etcd`; AlwaysAllow (the demo, most tests) or RBAC (the least-privilege tests).
 */
export function apiserverArgs(o: { etcd: string; port: number; dir: string; rbac?: boolean; etcdPrefix?: string }) {
  return [
    `--etcd-servers=${o.etcd}`,
    ...(o.etcdPrefix ? [`--etcd-prefix=${o.etcdPrefix}`] : []),
    '--bind-address=127.0.0.1',
    `--secure-port=${o.port}`,
    `--cert-dir=${join(o.dir, 'certs')}`,
    '--advertise-address=127.0.0.1',
    `--authorization-mode=${o.rbac ? 'RBAC' : 'AlwaysAllow'}`,
    `--token-auth-file=${join(o.dir, 'tokens.csv')}`,
    '--service-account-issuer=https://kubernetes.default.svc',
    `--service-account-key-file=${join(o.dir, 'sa.pub')}`,
    `--service-account-signing-key-file=${join(o.dir, 'sa.key')}`,
    '--service-cluster-ip-range=10.96.0.0/24',
    '--enable-priority-and-fairness=false',
    '--disable-admission-plugins=ServiceAccount',
    '--logtostderr=false',
    `--log-dir=${o.dir}`,
  ];
}

interface KubeServer {
  kubeconfig: string;
  children: ChildProcess[];
}

/** Why the demo cannot start an apiserver here (and how to fix it), or undefined when it can. */
export function kubeMissing(): string | undefined {
  if (!existsSync(join(KUBE_BIN, 'kube-apiserver')))
    return 'no kube-apiserver is built on this machine: run scripts/kube-apiserver.sh once (about 6 minutes)';
  if (spawnSync('etcd', ['--version']).error) return 'etcd is not installed (apt-get install -y etcd-server)';
  return undefined;
}

/** The apiserver's own etcd on `port` (peers on `port + 1`), in its own process group. */
function spawnEtcd(dir: string, port: number): ChildProcess {
  const [client, peer] = [`http://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`];
  return spawnGroup(
    'etcd',
    [
      ...['--name', 'demo', '--data-dir', join(dir, 'etcd')],
      ...['--listen-client-urls', client, '--advertise-client-urls', client],
      ...['--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer],
      ...['--initial-cluster', `demo=${peer}`],
    ],
    { stdio: 'ignore' },
  );
}

/** The service-account keys and an admin token in `dir`; returns the token. */
function writeCredentials(dir: string): string {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
  writeFileSync(join(dir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const token = randomBytes(16).toString('hex');
  writeFileSync(join(dir, 'tokens.csv'), `${token},demo-admin,demo-admin,system:masters\n`);
  return token;
}

/** A kubeconfig for the apiserver on `port` with `token`; returns its path. */
function writeKubeconfig(dir: string, port: number, token: string): string {
  const kubeconfig = join(dir, 'kubeconfig');
  const lines = ['apiVersion: v1', 'kind: Config', 'current-context: demo'];
  lines.push('clusters:', '- name: demo', '  cluster:', `    server: https://127.0.0.1:${port}`);
  lines.push('    insecure-skip-tls-verify: true');
  lines.push('users:', '- name: demo-admin', '  user:', `    token: ${token}`);
  lines.push('contexts:', '- name: demo', '  context:', '    cluster: demo', '    user: demo-admin', '');
  writeFileSync(kubeconfig, lines.join('\n'));
  return kubeconfig;
}

export async function startKubeServer(dataDir: string, port: number, signal: AbortSignal): Promise<KubeServer> {
  const dir = resolve(dataDir, 'kubernetes');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const etcdPort = port + 1; // and its peers on port + 2
  const etcd = spawnEtcd(dir, etcdPort);
  const token = writeCredentials(dir);
  const apiserver = spawnGroup(
    join(KUBE_BIN, 'kube-apiserver'),
    apiserverArgs({ etcd: `http://127.0.0.1:${etcdPort}`, port, dir }),
    { stdio: 'ignore' },
  );
  const kubeconfig = writeKubeconfig(dir, port, token);
  const children = [etcd, apiserver];
  for (let i = 0; ; i++) {
    const ready = await isReady(port, token);
    if (ready) return { kubeconfig, children };
    if (i > 300 || apiserver.exitCode !== null || signal.aborted) {
      for (const c of children) signalGroup(c, 'SIGKILL');
      throw new Error(`kube-apiserver did not become ready on port ${port}`);
    }
    await sleep(100, signal);
  }
}

/** GET /readyz with the token (the apiserver's own self-signed certificate: this is loopback, in the demo only). */
function isReady(port: number, token: string): Promise<boolean> {
  return new Promise((done) => {
    const req = get(
      {
        host: '127.0.0.1',
        port,
        path: '/readyz',
        rejectUnauthorized: false,
        headers: { authorization: `Bearer ${token}` },
      },
      (res) => {
        res.resume();
        done(res.statusCode === 200);
      },
    );
    req.on('error', () => done(false));
    req.setTimeout(1_000, () => req.destroy());
  });
}
