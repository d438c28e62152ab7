// Debian's etcd for tests: one member on free loopback ports in a temporary directory, stopped by the test that
// started it; and real `etcdctl lock` / `etcdctl elect` contenders (each a process holding its session's lease).
// A machine without etcd fails with the command that installs it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './browser';
import { delay } from './requests';

export const ETCD = process.env.LOCKBOARD_ETCD ?? 'etcd';
export const ETCDCTL = process.env.LOCKBOARD_ETCDCTL ?? 'etcdctl';

export function requireEtcd(): void {
  for (const [bin, arg] of [
    [ETCD, '--version'],
    [ETCDCTL, 'version'],
  ])
    if (spawnSync(bin!, [arg!]).status !== 0)
      throw new Error(
        `These tests need etcd: install it with "apt-get install -y etcd-server etcd-client" (${bin} not found; or set LOCKBOARD_ETCD / LOCKBOARD_ETCDCTL).`,
      );
}

export interface TestEtcd {
  /** `127.0.0.1:PORT`, the client endpoint. */
  endpoint: string;
  /** Runs etcdctl against this server; resolves to stdout (throws on a non-zero exit). */
  ctl(...args: string[]): string;
  /** Starts `etcdctl lock` (or `elect`) in the background: resolves once it printed something, or at once if `queued`. */
  contender(args: string[], o?: { queued?: boolean }): Promise<Contender>;
  /** Starts `etcdctl lock|elect … NAME [proposal]` and resolves with its key once that is queued (or holds). */
  queue(args: string[]): Promise<Queued>;
  /** etcdctl's credentials from now on (`root:pw` once auth is enabled). */
  setUser(user: string): void;
  /** Kills the server and starts it again on the same ports and data (a dropped connection for every client). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface Contender {
  child: ChildProcess;
  /** Lines printed so far (etcdctl lock prints the key when it holds it; the child command prints after). */
  output(): string;
  /** Resolves when `text` appears in the output, or rejects after `ms`. */
  waitFor(text: string | RegExp, ms?: number): Promise<number>;
  stop(): Promise<void>;
}

export interface Queued {
  key: string;
  c: Contender;
  /** The key's lease in hex (its suffix). */
  lease: string;
}

/** PEM files for a TLS etcd: the CA, the server's and a client's certificate and key (`tls.ts` writes them). */
export interface EtcdTls {
  ca: string;
  cert: string;
  key: string;
  serverCert: string;
  serverKey: string;
}

export async function startEtcd(o: { tls?: EtcdTls } = {}): Promise<TestEtcd> {
  requireEtcd();
  const dir = mkdtempSync(join(tmpdir(), 'lockboard-etcd-'));
  const [c, p] = [await freePort(), await freePort()];
  const client = `${o.tls ? 'https' : 'http'}://127.0.0.1:${c}`;
  const tlsArgs = o.tls
    ? [
        '--cert-file',
        o.tls.serverCert,
        '--key-file',
        o.tls.serverKey,
        '--trusted-ca-file',
        o.tls.ca,
        '--client-cert-auth',
      ]
    : [];
  const ctlTls = o.tls ? ['--cacert', o.tls.ca, '--cert', o.tls.cert, '--key', o.tls.key] : [];
  const peer = `http://127.0.0.1:${p}`;
  const args = [
    ...['--name', 't', '--data-dir', join(dir, 'data'), '--listen-client-urls', client],
    ...['--advertise-client-urls', client, '--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer],
    ...['--initial-cluster', `t=${peer}`, '--log-level', 'error'],
    ...tlsArgs,
  ];
  const launch = () => spawn(ETCD, args, { stdio: 'ignore' });
  let server = launch();
  const endpoint = `127.0.0.1:${c}`;
  let user: string | undefined;
  const userArgs = () => [...ctlTls, ...(user ? [`--user=${user}`] : [])];
  const ctl = (...args: string[]) => {
    const r = spawnSync(ETCDCTL, ['--endpoints', endpoint, ...userArgs(), ...args], {
      encoding: 'utf8',
      env: { ...process.env, ETCDCTL_API: '3' },
    });
    if (r.status !== 0) throw new Error(`etcdctl ${args.join(' ')}: ${r.stderr || r.stdout}`);
    return r.stdout;
  };
  const healthy = async () => {
    for (let i = 0; ; i++) {
      try {
        ctl('endpoint', 'health');
        return;
      } catch (err) {
        if (i > 200 || server.exitCode !== null) {
          server.kill('SIGKILL');
          throw new Error(`etcd did not start on ${endpoint}: ${(err as Error).message}`);
        }
        await delay(50);
      }
    }
  };
  await healthy();
  const children = new Set<Contender>();
  const keysOf = (name: string) =>
    ctl('get', '--prefix', `${name}/`, '--keys-only', '--sort-by=CREATE', '--order=ASCEND')
      .split('\n')
      .filter((l) => l.startsWith(`${name}/`));
  const self: TestEtcd = {
    setUser(u) {
      user = u;
    },
    endpoint,
    ctl,
    async queue(args) {
      const name = args.filter((a) => !a.startsWith('--') && !/^\d+$/.test(a))[1]!; // the verb, then the name
      const before = new Set(keysOf(name));
      const c = await self.contender(args, { queued: true });
      for (let i = 0; i < 300; i++) {
        const key = keysOf(name).find((k) => !before.has(k));
        if (key) return { key, c, lease: key.slice(name.length + 1) };
        await delay(10);
      }
      throw new Error(`etcdctl ${args.join(' ')} did not queue: ${c.output()}`);
    },
    async contender(args, o) {
      const child = spawn(ETCDCTL, ['--endpoints', endpoint, ...userArgs(), ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ETCDCTL_API: '3' },
      });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const waitFor = async (text: string | RegExp, ms = 5_000) => {
        const t0 = performance.now();
        while (!(typeof text === 'string' ? out.includes(text) : text.test(out))) {
          if (performance.now() - t0 > ms || child.exitCode !== null)
            throw new Error(`etcdctl ${args.join(' ')}: no ${String(text)} in ${JSON.stringify(out)}`);
          await delay(5);
        }
        return performance.now();
      };
      const handle: Contender = {
        child,
        output: () => out,
        waitFor,
        async stop() {
          children.delete(handle);
          if (child.exitCode !== null || child.signalCode !== null) return;
          const closed = new Promise((r) => child.once('close', r));
          child.kill('SIGTERM');
          await Promise.race([closed, delay(2_000)]);
          if (child.exitCode === null) child.kill('SIGKILL');
        },
      };
      children.add(handle);
      if (!o?.queued) await waitFor(/\S/);
      return handle;
    },
    async restart() {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGKILL');
      await exited;
      server = launch();
      await healthy();
    },
    async stop() {
      for (const h of [...children]) await h.stop();
      server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return self;
}
