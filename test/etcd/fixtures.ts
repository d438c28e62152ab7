// Locks written by the real tools for the etcd tests: python3-etcd3 (Debian's, run with Debian's interpreter) and
// npm etcd3; etcdctl's own come from the server helper (test/helpers/etcd.ts).
import { spawnSync } from 'node:child_process';
import { Etcd3 } from 'etcd3';

const PYTHON = process.env.LOCKBOARD_DEBIAN_PYTHON ?? '/usr/bin/python3';

/** A python3-etcd3 lock (`/locks/<name>`, 16 raw bytes, lease TTL 60 s) left held by a process that exited. */
export function pythonEtcd3Lock(endpoint: string, name: string): void {
  const [host, port] = endpoint.split(':');
  const script = `import etcd3\nl = etcd3.client(host='${host}', port=${port}).lock('${name}', ttl=60)\nassert l.acquire(timeout=5)`;
  const r = spawnSync(PYTHON, ['-c', script], { encoding: 'utf8' });
  if (r.error || r.status !== 0)
    throw new Error(
      `python3-etcd3 could not write its lock (${r.stderr || r.error?.message}): install it with "apt-get install -y python3-etcd3" (Debian's python3, or set LOCKBOARD_DEBIAN_PYTHON).`,
    );
}

/** An npm etcd3 lock (the key is the name, on a 30 s lease), held until the returned release. */
export async function npmEtcd3Lock(endpoint: string, name: string): Promise<() => Promise<void>> {
  const client = new Etcd3({ hosts: `http://${endpoint}` });
  const lock = client.lock(name).ttl(30);
  await lock.acquire();
  return async () => {
    await lock.release().catch(() => undefined);
    client.close();
  };
}

/** An npm etcd3 Election (`election/<name>/<lease in decimal>`): a leader and a candidate, until the returned stop. */
export async function npmEtcd3Election(endpoint: string, name: string): Promise<() => Promise<void>> {
  const client = new Etcd3({ hosts: `http://${endpoint}` });
  const election = client.election(name, 30);
  const leader = election.campaign('npm-leader');
  await new Promise<void>((resolve, reject) => leader.once('elected', resolve).once('error', reject));
  const candidate = election.campaign('npm-candidate');
  candidate.on('error', () => undefined);
  for (let i = 0; (await client.getAll().prefix(`election/${name}/`).keys()).length < 2; i++) {
    if (i > 200) throw new Error('the npm etcd3 candidate did not queue');
    await new Promise((r) => setTimeout(r, 10));
  }
  return async () => {
    await candidate.resign().catch(() => undefined);
    await leader.resign().catch(() => undefined);
    client.close();
  };
}
