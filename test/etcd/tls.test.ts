// An etcds:// source against Debian's etcd serving TLS with client-certificate auth: the CA, certificate and key
// files named in the URL are what the client presents; a missing file is named in the error.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource, parseSource } from '@/lib/lock/stores';
import { startEtcd, type EtcdTls, type TestEtcd } from '../helpers/etcd';

const dir = mkdtempSync(join(tmpdir(), 'lockboard-etcd-tls-'));
let etcd: TestEtcd;
let tls: EtcdTls;

/** A CA, a server certificate for 127.0.0.1 and a client certificate, by openssl. */
function writeCerts(): EtcdTls {
  const f = (n: string) => join(dir, n);
  const run = (...args: string[]) => {
    const r = spawnSync('openssl', args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl ${args[0]} failed (apt-get install -y openssl): ${r.stderr}`);
  };
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=test-ca',
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.pem'),
  );
  for (const [who, ext] of [
    ['server', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth'],
    ['client', 'extendedKeyUsage=clientAuth'],
  ] as const) {
    spawnSync('sh', ['-c', `printf '${ext}\n' > ${f(`${who}.ext`)}`]);
    run(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      `/CN=${who}`,
      '-keyout',
      f(`${who}.key`),
      '-out',
      f(`${who}.csr`),
    );
    run(
      'x509',
      '-req',
      '-in',
      f(`${who}.csr`),
      '-CA',
      f('ca.pem'),
      '-CAkey',
      f('ca.key'),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      f(`${who}.ext`),
      '-out',
      f(`${who}.pem`),
    );
  }
  return {
    ca: f('ca.pem'),
    cert: f('client.pem'),
    key: f('client.key'),
    serverCert: f('server.pem'),
    serverKey: f('server.key'),
  };
}

beforeAll(async () => {
  tls = writeCerts();
  etcd = await startEtcd({ tls });
}, 30_000);
afterAll(async () => {
  await etcd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('etcds:// sources', () => {
  it('lists over TLS with the CA, certificate and key files the URL names', async () => {
    await etcd.queue(['lock', '--ttl', '30', 'jobs/tls']);
    const url = `etcds://${etcd.endpoint}/jobs/?ca=${tls.ca}&cert=${tls.cert}&key=${tls.key}`;
    const store = await openSource(parseSource(url), { env: {}, role: 'cli' });
    try {
      expect(store.source).toBe(`etcds://${etcd.endpoint}/jobs/`);
      expect((await store.list()).locks.map((l) => l.name)).toEqual(['jobs/tls']);
    } finally {
      await store.close();
    }
  });

  it('names a TLS file it cannot read', async () => {
    const url = `etcds://${etcd.endpoint}/jobs/?ca=${join(dir, 'missing.pem')}`;
    await expect(openSource(parseSource(url), { env: {}, role: 'cli' })).rejects.toThrow(
      /Cannot read the etcd CA file ".*missing\.pem": ENOENT/,
    );
  });
});
