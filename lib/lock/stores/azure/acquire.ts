// acquireAzureLock / withAzureLock: the protocol's acquire on Azure. A lock blob whose lease is not held (absent,
// never taken, released, expired, broken) gets the new owner's metadata (If-None-Match: * or If-Match), then a fixed
// lease with the next token as its proposed id, If-Match on that write's ETag. Held → wait (reads only) through the
// shared wait, until timeoutMs. A blob with data or another tool's metadata is refused, never overwritten.
import type { ContainerClient } from '@azure/storage-blob';
import { LockOptionsError } from '../../errors';
import { releasedEvent, runHolding } from '../../holding/hold';
import { leaseSettings } from '../../holding/options';
import type { LockView } from '../../store';
import { waitForLock } from '../../holding/wait';
import { AzureBlobs } from './blobs';
import { azureStatus } from './errors';
import { lowerKeys } from './formats';
import { AzureLock, heldMetadata, leaseSecondsFor, nextToken, type AzureLockSettings } from './lock';
import { AzureLockStore } from './store';

export interface AzureAcquireOptions {
  /** The container client (`@azure/storage-blob`), or the blobs of a store already open. */
  client: ContainerClient | AzureBlobs;
  /** The blob's name, e.g. `locks/deploy-prod`. */
  name: string;
  identity?: string;
  purpose?: string;
  /** Azure's fixed leases last 15–60 s: a longer TTL is held as a 60 s lease renewed more often. */
  ttlMs?: number;
  refreshIntervalMs?: number;
  /** undefined = wait without limit; 0 = try once. */
  timeoutMs?: number;
  signal?: AbortSignal;
  onWait?: (holder: LockView) => void;
  /** Audit events under this prefix of the container, or false for none. */
  audit?: { prefix?: string } | false;
}

const conflict = (err: unknown) => [409, 412, 404].includes(azureStatus(err) ?? 0);

export async function acquireAzureLock(o: AzureAcquireOptions): Promise<AzureLock> {
  const settings = settingsOf(o);
  const blobs = blobsOf(o.client);
  const store = trailOf(blobs, o);
  return waitForLock(
    o,
    async () => {
      const taken = await takeOnce(blobs, o.name, settings);
      if (!taken) return null; // held, or someone else won: read again
      if (o.audit !== false) {
        const { before, leaseState, token } = taken;
        const tookOver = before.format === 'lockboard/1' && leaseState === 'expired';
        const previous: Record<string, string> =
          tookOver && before.identity ? { previous_identity: before.identity } : {};
        void store
          .record({
            event: tookOver ? 'took-over' : 'acquired',
            lock: o.name,
            identity: settings.identity,
            generation: token,
            ...previous,
          })
          .catch(() => undefined);
      }
      return new AzureLock(blobs, settings, taken.token);
    },
    () => store.inspect(o.name),
  );
}

/**
 * One try: the new owner is written first (an unleased blob takes writes without a lease id; If-Match on the ETag
 * read, or If-None-Match: * for a new blob), then the lease taken with If-Match on the ETag that write made. So a
 * leased lock blob's metadata always names the holder of its lease, and of two contenders only one gets both.
 */
async function takeOnce(blobs: AzureBlobs, name: string, settings: AzureLockSettings) {
  const b = await blobs.head(name);
  if (b && (b.leaseState === 'leased' || b.leaseState === 'breaking')) return null;
  const before = b ? lowerKeys(b.metadata) : {};
  if (b && (b.size > 0 || (Object.keys(before).length > 0 && before.format !== 'lockboard/1')))
    throw new LockOptionsError(
      `${name} is not a Lockboard lock blob (it holds data or another tool's metadata): choose another lock name`,
    );
  const token = nextToken(before.token, blobs.now());
  const metadata = heldMetadata(settings, token, blobs.now());
  try {
    const etag = b
      ? await blobs.setMetadata(name, metadata, { ifMatch: b.etag })
      : await blobs.upload(name, '', { metadata, ifNoneMatch: '*' });
    await blobs.acquireLease(name, token, settings.ttlMs / 1000, { ifMatch: etag });
  } catch (err) {
    if (conflict(err)) return null;
    throw err;
  }
  return { token, before, leaseState: b?.leaseState };
}

/** Runs `fn` while holding the lock and releases it after, whatever `fn` does. */
export async function withAzureLock<T>(o: AzureAcquireOptions, fn: (lock: AzureLock) => Promise<T>): Promise<T> {
  const lock = await acquireAzureLock(o);
  return runHolding(lock, fn, async (outcome) => {
    const released = await lock.release().catch((err: unknown) => {
      if (!outcome.failed) throw err;
      return 'already-lost' as const;
    });
    if (o.audit === false) return;
    const event = releasedEvent(o.name, lock.fencingToken, outcome, released === 'released');
    await trailOf(blobsOf(o.client), o)
      .record(event)
      .catch(() => undefined);
  });
}

function blobsOf(client: AzureAcquireOptions['client']): AzureBlobs {
  if (client instanceof AzureBlobs) return client;
  return new AzureBlobs(client, `azure://${client.accountName}/${client.containerName}/`, client.url);
}

function trailOf(blobs: AzureBlobs, o: AzureAcquireOptions): AzureLockStore {
  const [account = '', container = ''] = blobs.source.replace('azure://', '').split('/');
  return new AzureLockStore({ blobs, account, container, ...(o.audit ? { auditPrefix: o.audit.prefix } : {}) });
}

function settingsOf(o: AzureAcquireOptions): AzureLockSettings {
  if (!o || typeof o !== 'object') throw new LockOptionsError('Expected an options object');
  if (!o.client || typeof (o.client as { getBlobClient?: unknown }).getBlobClient !== 'function')
    if (!(o.client instanceof AzureBlobs))
      throw new LockOptionsError('Expected `client` to be a ContainerClient from @azure/storage-blob');
  const s = leaseSettings(o);
  const ttlMs = leaseSecondsFor(s.ttlMs) * 1000;
  return { ...s, ttlMs, refreshIntervalMs: Math.min(s.refreshIntervalMs, Math.floor(ttlMs / 3)) };
}
