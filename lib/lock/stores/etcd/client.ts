// The etcd client (npm `etcd3`, loaded only when an etcd source is opened): TLS files and credentials from the
// source, every call with a deadline, and the CLI's client failing fast instead of retrying.
import { readFileSync } from 'node:fs';
import type { IOptions } from 'etcd3';
import { missingSdk, type OpenOptions } from '../types';
import type { EtcdKv } from './formats';
import type { EtcdSource } from './source';

type Etcd3Module = typeof import('etcd3');
export type Etcd3Client = InstanceType<Etcd3Module['Etcd3']>;

async function loadEtcd3(): Promise<Etcd3Module> {
  try {
    return await import('etcd3');
  } catch {
    throw missingSdk('etcd:// sources', 'etcd3');
  }
}

function readPem(what: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new Error(
      `Cannot read the etcd ${what} file ${JSON.stringify(path)}: ${(err as NodeJS.ErrnoException).code ?? err}.`,
    );
  }
}

export async function connectEtcd(
  src: EtcdSource,
  o: Pick<OpenOptions, 'role'>,
  /** Replies larger than this are refused before they are read (the value client of bounded-read.ts). */
  maxReplyBytes?: number,
): Promise<Etcd3Client> {
  const { Etcd3 } = await loadEtcd3();
  const { ca, cert, key } = src.files;
  const credentials =
    src.tls && ca
      ? {
          rootCertificate: readPem('CA', ca),
          ...(cert && key ? { certChain: readPem('certificate', cert), privateKey: readPem('key', key) } : {}),
        }
      : undefined;
  const deadlineMs = o.role === 'cli' ? 5_000 : 10_000;
  const client = new Etcd3({
    hosts: src.hosts.map((h) => `${src.tls ? 'https' : 'http'}://${h}`),
    ...(credentials ? { credentials } : {}),
    ...(src.auth ? { auth: src.auth } : {}),
    dialTimeout: deadlineMs,
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + deadlineMs }),
    ...(maxReplyBytes
      ? {
          grpcOptions: { 'grpc.max_receive_message_length': maxReplyBytes },
          // a reply refused for its size is the data's fault, not the server's: no circuit breaker, no retry
          faultHandling: { host: () => passThrough, global: passThrough },
        }
      : {}),
  });
  try {
    await client.getAll().prefix(src.prefix).limit(1).keys(); // a read the source's role must allow anyway
  } catch (err) {
    client.close();
    const why = (err as Error).message.split('\n')[0]!.replace(/\.?\s*Resolution note:.*$/, '');
    throw Object.assign(new Error(`Cannot reach ${src.display}: ${why}`), { code: 'ECONNREFUSED' });
  }
  return client;
}

type Policy = NonNullable<NonNullable<IOptions['faultHandling']>['global']>;
const never = () => ({ dispose: () => undefined });
/** A fault-handling policy that only runs the call (etcd3's default breaks the circuit after 3 failed calls). */
const passThrough = {
  _altReturn: undefined as never,
  onSuccess: never,
  onFailure: never,
  execute: async (fn: (c: { signal: AbortSignal }) => unknown, signal?: AbortSignal) =>
    fn({ signal: signal ?? new AbortController().signal }),
} as unknown as Policy;

/** A KeyValue of the v3 API in the formats' terms. */
export function kvOf(kv: {
  key: Buffer;
  value: Buffer;
  create_revision: string;
  mod_revision: string;
  lease: string;
}): EtcdKv {
  return {
    key: kv.key.toString('utf8'),
    value: kv.value,
    createRevision: kv.create_revision,
    modRevision: kv.mod_revision,
    lease: kv.lease || '0',
  };
}
