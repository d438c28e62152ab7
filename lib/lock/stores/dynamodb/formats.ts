// The lock formats of DynamoDB tables (facts-dynamodb.md): Terraform's lock item (LockID + Info, never expires) and
// its `-md5` Digest item (never a lock), the AWS lock-client family (key/lock_key, ownerName/owner_name, a lease in ms,
// a Go duration or seconds, recordVersionNumber, isReleased; the npm client's FailClosed locks have no lease), and
// Lockboard's own. Each reading says what a release must pin: exactly what was read.
import { createHash } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { MAX_BODY_BYTES } from '../../objects/formats/types';
import { isValidTime } from '../../time';
import { FieldReader, jsonObject } from '../../support/untrusted';
import type { Condition, Item, KeySchema } from './table';

export interface DynamoReading {
  name: string;
  format: 'terraform' | 'dynamodb-lock-client' | 'lockboard';
  label: string;
  identity?: string;
  details: [string, string][];
  /** The release condition: the item still holds exactly what was read. */
  pinned: Condition;
  /** What the version hashes. */
  versionOf: string;
  /** The holder is stale once the same version has been seen unchanged for longer than this. */
  leaseMs?: number;
  /** Lockboard's own: stale at this time of the service's clock. */
  expiresAtMs?: number;
  acquiredMs?: number;
  released?: boolean;
  /** Attributes of the wrong type (a map where a string belongs), ignored: named in the lock's note. */
  dropped?: string[];
  token?: string;
  purpose?: string;
  host?: string;
  /** Terraform's lock info ID. */
  lockId?: string;
}

type ItemClass = { kind: 'lock'; reading: DynamoReading } | { kind: 'skip'; why: string };

/** Lockboard's fencing counters live beside its locks under this suffix. */
export const FENCE_SUFFIX = '#lockboard-fence';

const str = (v: AttributeValue | undefined): string | undefined =>
  v?.S ?? v?.N ?? (v?.B ? Buffer.from(v.B).toString('base64') : undefined);

const hash = (s: string, n: number) => createHash('sha1').update(s).digest('hex').slice(0, n);

/**
 * The version: a hash of what a release pins; for a lease client also a short hash of its owner, so a newer version
 * by the same owner (a heartbeat: the holder is alive) is told from a successor's.
 */
export function versionOf(r: Pick<DynamoReading, 'versionOf' | 'format' | 'identity'>): string {
  const pinned = hash(r.versionOf, 16);
  return r.format === 'terraform' ? pinned : `${pinned}.${hash(r.identity ?? '', 8)}`;
}

/** Whether `version` was taken from a lock of the same owner as `current` (a heartbeat since, not a successor). */
export function sameOwner(version: string, current: Pick<DynamoReading, 'format' | 'identity'>): boolean {
  const owner = version.split('.')[1];
  return current.format !== 'terraform' && owner !== undefined && owner === hash(current.identity ?? '', 8);
}

export function readItem(item: Item, keys: KeySchema): ItemClass {
  // the read limit GCS bodies have: an item this large (DynamoDB allows 400 KB) is no lock, and is never parsed
  if (itemBytes(item) > MAX_BODY_BYTES) return { kind: 'skip', why: `larger than ${MAX_BODY_BYTES / 1024} KiB` };
  const name = str(item[keys.hash]) ?? '';
  if (name.endsWith(FENCE_SUFFIX)) return { kind: 'skip', why: 'Lockboard’s fencing counter' };
  if (item.Info?.S !== undefined) return terraformLock(name, item.Info.S);
  if (item.Digest) return { kind: 'skip', why: 'Terraform’s state digest (the MD5 of the state), not a lock' };
  const rvnAttr = item.recordVersionNumber
    ? 'recordVersionNumber'
    : item.record_version_number
      ? 'record_version_number'
      : undefined;
  if (!rvnAttr) return { kind: 'skip', why: 'an item of no lock shape' };
  return leaseLock(name, item, keys, rvnAttr);
}

function terraformLock(name: string, info: string): ItemClass {
  const parsed = jsonObject(info);
  if (!parsed) return { kind: 'skip', why: 'an Info attribute that is not Terraform’s LockInfo JSON' };
  const reader = new FieldReader(parsed);
  const field = (k: string) => reader.text(k);
  const id = field('ID');
  const created = Date.parse((field('Created') ?? '').replace(/(\.\d{3})\d+/, '$1'));
  const details: [string, string][] = [
    ['Who', field('Who') ?? '—'],
    ['Operation', field('Operation') ?? '—'],
    ['Path', field('Path') ?? '—'],
    ['Terraform version', field('Version') ?? '—'],
    ...(field('Info') ? [['Info', field('Info')!] as [string, string]] : []),
    ['Terraform lock info ID', id ?? '—'],
    ...(id ? [['Equivalent command', `terraform force-unlock ${id}`] as [string, string]] : []),
  ];
  return {
    kind: 'lock',
    reading: {
      name,
      format: 'terraform',
      label: 'Terraform state lock (DynamoDB)',
      ...(field('Who') ? { identity: field('Who') } : {}),
      details,
      pinned: { expression: '#i = :info', names: { '#i': 'Info' }, values: { ':info': { S: info } } },
      versionOf: info,
      ...(Number.isFinite(created) ? { acquiredMs: created } : {}),
      ...(field('Operation') ? { purpose: field('Operation') } : {}),
      ...(id ? { lockId: id } : {}),
      ...(reader.dropped.length ? { dropped: [...new Set(reader.dropped)] } : {}),
    },
  };
}

function leaseLock(name: string, item: Item, keys: KeySchema, rvnAttr: string): ItemClass {
  const ownerAttr = item.ownerName ? 'ownerName' : item.owner_name ? 'owner_name' : undefined;
  const owner = ownerAttr ? str(item[ownerAttr]) : undefined;
  const rvn = str(item[rvnAttr]) ?? '';
  const lockboard = item.lockboard?.S === '1';
  const leaseMs = leaseOf(item);
  const acquired = Number(item.acquiredAt?.N ?? item.lockAcquiredTimeUnixMs?.N);
  const expiresAt = Number(item.expiresAt?.N);
  const dropped = wrongTyped(item, ownerAttr, ['purpose', 'host']);
  const names: Record<string, string> = { '#pk': keys.hash, '#rvn': rvnAttr };
  const values: Record<string, AttributeValue> = { ':rvn': item[rvnAttr]! };
  let expression = 'attribute_exists(#pk) AND #rvn = :rvn';
  if (ownerAttr) {
    names['#on'] = ownerAttr;
    values[':on'] = item[ownerAttr]!;
    expression += ' AND #on = :on';
  }
  const released = str(item.isReleased) === '1' || str(item.is_released) === '1';
  return {
    kind: 'lock',
    reading: {
      name,
      format: lockboard ? 'lockboard' : 'dynamodb-lock-client',
      label: lockboard ? 'Lockboard lock (DynamoDB)' : 'AWS DynamoDB lock client',
      ...(owner ? { identity: owner } : {}),
      details: [
        ['Owner', owner ?? 'not recorded'],
        ['Lease', leaseMs === undefined ? 'none: it never expires by itself (FailClosed)' : `${leaseMs / 1000} s`],
        ['Record version', rvn.length > 48 ? `${rvn.slice(0, 48)}…` : rvn],
        ...(released ? [['Released', 'yes (isReleased = 1): the next client takes it'] as [string, string]] : []),
      ],
      pinned: { expression, names, values },
      versionOf: `${rvn}\u0000${owner ?? ''}`,
      ...(leaseMs !== undefined ? { leaseMs } : {}),
      ...(lockboard && isValidTime(expiresAt) ? { expiresAtMs: expiresAt } : {}),
      ...(isValidTime(acquired) && acquired > 0 ? { acquiredMs: acquired } : {}),
      ...(released ? { released } : {}),
      ...(item.token?.N ? { token: item.token.N } : {}),
      ...(item.purpose?.S ? { purpose: item.purpose.S } : {}),
      ...(item.host?.S ? { host: item.host.S } : {}),
      ...(dropped.length ? { dropped } : {}),
    },
  };
}

/** Attributes that are there but not a string (S), number (N) or binary (B): a map, a list, a set, a boolean. */
function wrongTyped(item: Item, ownerAttr: string | undefined, texts: string[]): string[] {
  const out: string[] = [];
  for (const attr of [ownerAttr, ...texts]) {
    const v = attr === undefined ? undefined : item[attr];
    if (v && v.S === undefined && v.N === undefined && v.B === undefined) out.push(`${attr} (not a string)`);
  }
  return out;
}

/** leaseDuration in ms (Java, npm: "20000"), a Go duration (dynamolock: "20s"), or lease_duration seconds (python). */
export function leaseOf(item: Item): number | undefined {
  const raw = str(item.leaseDuration);
  const ms =
    raw !== undefined
      ? /^\d+$/.test(raw)
        ? Number(raw)
        : goDuration(raw)
      : Number(item.lease_duration?.N ?? item.lease_duration?.S) * 1000;
  // a lease a Date can add to a time; an absurd one (1e308) is no lease
  return ms !== undefined && isValidTime(ms) && ms > 0 ? ms : undefined;
}

function goDuration(raw: string): number | undefined {
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001, ns: 1e-6 };
  let total = 0;
  let rest = raw;
  while (rest) {
    const m = /^(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/.exec(rest);
    if (!m) return undefined;
    total += Number(m[1]) * unit[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return total;
}

/** An item's size as DynamoDB counts it, near enough: attribute names and values (binary by its bytes). */
function itemBytes(item: Item): number {
  let size = 0;
  for (const [name, v] of Object.entries(item))
    size +=
      name.length + (v.B ? v.B.byteLength : v.S !== undefined ? Buffer.byteLength(v.S) : JSON.stringify(v).length);
  return size;
}
