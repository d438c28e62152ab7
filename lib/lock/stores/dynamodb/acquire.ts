// acquireDynamoLock / withDynamoLock: the protocol's acquire on DynamoDB. Absent → a fencing token from the atomic
// counter beside the lock (UpdateItem ADD), then PutItem with attribute_not_exists. Stale (its expiresAt passed on
// the service's clock) or released → the same, conditioned on the recordVersionNumber read (one conditional write
// takes it over). Held → wait with backoff (reads only), until timeoutMs.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LockOptionsError } from '../../errors';
import { holdAndRelease } from '../../holding/hold';
import { leaseSettings, type LeaseRequest } from '../../holding/options';
import type { LockView } from '../../store';
import { waitForLock } from '../../holding/wait';
import { FENCE_SUFFIX, readItem } from './formats';
import { DynamoLock, type DynamoLockSettings } from './lock';
import { DynamoLockStore } from './store';
import type { Condition, Item } from './table';

export interface DynamoAcquireOptions extends LeaseRequest<LockView> {
  client: DynamoDBClient;
  table: string;
  /** The lock's name: the value of the table's hash key. */
  name: string;
  /** Events (acquired, took-over, released) in this audit table (default lockboard-audit), or false for none. */
  audit?: { table?: string } | false;
}

export async function acquireDynamoLock(o: DynamoAcquireOptions): Promise<DynamoLock> {
  const settings = settingsOf(o);
  const store = new DynamoLockStore({
    client: o.client,
    table: o.table,
    auditTable: o.audit ? o.audit.table : undefined,
  });
  const table = store.table;
  const keys = await table.keys();
  return waitForLock(
    o,
    async () => {
      const current = await table.get(o.name);
      const read = current ? readItem(current, keys) : null;
      const reading = read?.kind === 'lock' ? read.reading : undefined;
      if (current && read?.kind !== 'lock')
        throw new LockOptionsError(`${o.name} in ${o.table} is not a lock: ${read?.why}`);
      const stale = reading && (reading.released || (reading.expiresAtMs ?? Infinity) <= table.clock.now());
      if (reading && !stale) return null; // held: wait
      const token = await table.increment(`${o.name}${FENCE_SUFFIX}`, 'fence');
      const rvn = randomUUID();
      const condition: Condition = reading
        ? {
            expression: '#rvn = :rvn',
            names: { '#rvn': 'recordVersionNumber' },
            values: { ':rvn': current!.recordVersionNumber! },
          }
        : { expression: 'attribute_not_exists(#pk)', names: { '#pk': keys.hash } };
      const item = heldItem(settings, await table.keyOf(o.name), rvn, token, table.clock.now());
      if (!(await table.putIf(item, condition))) return null; // someone else won: read again
      if (o.audit !== false) {
        const event = reading && !reading.released ? 'took-over' : 'acquired';
        void store
          .record({ event, lock: o.name, identity: settings.identity, generation: String(token) })
          .catch(() => '');
      }
      return new DynamoLock(table, settings, rvn, token);
    },
    () => store.inspect(o.name),
  );
}

/** Runs `fn` while holding the lock and releases it after, whatever `fn` does. */
export async function withDynamoLock<T>(o: DynamoAcquireOptions, fn: (lock: DynamoLock) => Promise<T>): Promise<T> {
  const lock = await acquireDynamoLock(o);
  const store = () =>
    new DynamoLockStore({ client: o.client, table: o.table, auditTable: o.audit ? o.audit.table : undefined });
  const trail = {
    lock: o.name,
    record: (e: Record<string, string>) =>
      store()
        .record(e)
        .catch(() => ''),
  };
  return holdAndRelease(lock, fn, o.audit === false ? null : trail);
}

function heldItem(s: DynamoLockSettings, key: Item, rvn: string, token: bigint, now: number): Item {
  return {
    ...key,
    lockboard: { S: '1' },
    ownerName: { S: s.identity },
    leaseDuration: { S: String(s.ttlMs) },
    recordVersionNumber: { S: rvn },
    expiresAt: { N: String(Math.round(now + s.ttlMs)) },
    acquiredAt: { N: String(Math.round(now)) },
    token: { N: String(token) },
    host: { S: hostname() },
    ...(s.purpose ? { purpose: { S: s.purpose } } : {}),
  };
}

function settingsOf(o: DynamoAcquireOptions): DynamoLockSettings {
  if (!o || typeof o !== 'object') throw new LockOptionsError('Expected an options object');
  if (!o.client || typeof (o.client as { send?: unknown }).send !== 'function')
    throw new LockOptionsError('Expected `client` to be a DynamoDBClient from @aws-sdk/client-dynamodb');
  if (typeof o.table !== 'string' || !/^[a-zA-Z0-9_.-]{3,255}$/.test(o.table))
    throw new LockOptionsError(`Expected \`table\` to be a DynamoDB table name, got ${JSON.stringify(o.table)}`);
  return leaseSettings(o);
}
