// Writers that put lock objects in a bucket exactly as each implementation does (metadata keys and value formats,
// body, and refresh style: a metadata PATCH or a rewrite), through the official client. Used by tests and the demo.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Storage } from '@google-cloud/storage';

export type Written = { generation: string; metageneration: string };

async function create(
  storage: Storage,
  bucket: string,
  name: string,
  body: string | Buffer,
  extra: { metadata?: Record<string, string>; contentType?: string; temporaryHold?: boolean } = {},
  ifGenerationMatch = 0,
): Promise<Written> {
  const file = storage.bucket(bucket).file(name);
  const { metadata, contentType, temporaryHold } = extra;
  await file.save(body, {
    resumable: false,
    metadata: {
      contentType: contentType ?? 'application/octet-stream',
      ...(metadata ? { metadata } : {}),
      ...(temporaryHold ? { temporaryHold } : {}),
    },
    preconditionOpts: { ifGenerationMatch },
  });
  return { generation: String(file.metadata.generation), metageneration: String(file.metadata.metageneration) };
}

/** Terraform's GCS backend: `<state path>.tflock` created if absent, with the lock info as JSON; no metadata. */
export function writeTerraformLock(storage: Storage, bucket: string, statePath: string, who = 'ann@laptop') {
  const info = {
    ID: randomUUID(),
    Operation: 'OperationTypeApply',
    Info: '',
    Who: who,
    Version: '1.9.5',
    Created: new Date().toISOString(),
    Path: `${bucket}/${statePath}`,
  };
  return create(storage, bucket, statePath.replace(/\.tfstate$/, '.tflock'), JSON.stringify(info), {
    contentType: 'application/json',
  });
}

/** A Terraform state file (data: never a lock). */
export function writeTerraformState(storage: Storage, bucket: string, statePath: string) {
  const state = { version: 4, terraform_version: '1.9.5', serial: 7, lineage: randomUUID(), outputs: {} };
  return create(storage, bucket, statePath, JSON.stringify(state), { contentType: 'application/json' });
}

/** Pulumi's DIY backend: `.pulumi/locks/<org>/<project>/<stack>/<uuid>.json` with {pid, username, hostname, timestamp}. */
export function writePulumiLock(storage: Storage, bucket: string, root: string, stack: string, user = 'bob') {
  const body = { pid: 4242, username: user, hostname: 'ci-runner-7', timestamp: new Date().toISOString() };
  return create(storage, bucket, `${root}.pulumi/locks/${stack}/${randomUUID()}.json`, JSON.stringify(body));
}

/** Vault's HA lock: metadata `lock` = JSON {identity, timestamp}, `value` = leader id; rewritten every 5 s. */
export function writeVaultLock(storage: Storage, bucket: string, name: string, identity: string, overwrite?: string) {
  const metadata = {
    lock: JSON.stringify({ identity, timestamp: new Date().toISOString() }),
    value: `leader-${identity}`,
  };
  return create(storage, bucket, name, '', { metadata }, overwrite === undefined ? 0 : Number(overwrite));
}

/** The Ruby library (and gdlock): metadata identity and expires_at (float seconds); refreshed by a metadata PATCH. */
export function writeRubyLock(storage: Storage, bucket: string, name: string, ttlSeconds: number, nowMs = Date.now()) {
  const identity = `${randomBytes(8).toString('hex')}-${process.pid}/thr-1`;
  const metadata = { identity, expires_at: ((nowMs + ttlSeconds * 1000) / 1000).toFixed(6) };
  return create(storage, bucket, name, '', { metadata });
}

/** Python gcslock ("gcs-atomic-lock"): metadata lock_owner and expires_sec; refresh and takeover are PATCHes. */
export function writeGcslockLock(storage: Storage, bucket: string, name: string, owner: string, expiresSec: number) {
  return create(storage, bucket, name, '', { metadata: { lock_owner: owner, expires_sec: String(expiresSec) } });
}

/** gcslock's refresh or takeover: a metadata PATCH conditioned on the metageneration (owner may change). */
export async function patchGcslockOwner(storage: Storage, bucket: string, name: string, owner: string, seen: Written) {
  const file = storage.bucket(bucket).file(name);
  await file.setMetadata(
    { metadata: { lock_owner: owner } },
    { ifGenerationMatch: Number(seen.generation), ifMetagenerationMatch: Number(seen.metageneration) },
  );
  return { generation: String(file.metadata.generation), metageneration: String(file.metadata.metageneration) };
}

/** ncruces gmutex: metadata `ttl` in whole seconds. */
export function writeGmutexLock(storage: Storage, bucket: string, name: string, ttlSeconds: number) {
  return create(storage, bucket, name, '', { metadata: { ttl: String(ttlSeconds) } });
}

/** sethvargo go-gcslock: metadata `nbf` (unix seconds); kept after release with nbf in the past. */
export function writeGoGcslock(storage: Storage, bucket: string, name: string, nbfMs: number) {
  return create(storage, bucket, name, '', { metadata: { nbf: String(Math.floor(nbfMs / 1000)) } });
}

/** Caddy certmagic-gcs: `<key>.lock`, empty, no custom metadata, with a temporary hold while held. */
export function writeCertmagicLock(storage: Storage, bucket: string, name: string) {
  return create(storage, bucket, name, '', { temporaryHold: true });
}

/** Apache Hudi: `.hoodie/.locks/table_lock.json` with {expired, validUntil, owner}. */
export function writeHudiLock(storage: Storage, bucket: string, table: string, validUntil: number, expired = false) {
  const body = { expired, validUntil, owner: `writer-${randomUUID().slice(0, 8)}` };
  return create(storage, bucket, `${table}/.hoodie/.locks/table_lock.json`, JSON.stringify(body));
}

/** restic: `<repo>/locks/<64 hex>` with an encrypted body. */
export function writeResticLock(storage: Storage, bucket: string, repo: string) {
  return create(storage, bucket, `${repo}locks/${randomBytes(32).toString('hex')}`, randomBytes(200));
}

/** Create-only tools (gsutil scripts, S0 RemoteLock, mco-gh, XaF): a tiny body, no metadata. */
export function writePlainLock(storage: Storage, bucket: string, name: string, body = 'lock\n') {
  return create(storage, bucket, name, body);
}
