// The lock formats of blob leases (facts-azure.md): Terraform's azurerm backend (an infinite lease whose id is the
// LockInfo ID, LockInfo as base64 JSON in metadata `terraformlockid`), WebJobs / Azure Functions singletons (fixed
// leases in azure-webjobs-hosts/locks/<hostId>/…), Lockboard's own (a fixed lease whose id is its token), and any
// other leased blob ("held, lease id unknown"). A blob without a lease is not held: data, or stale lock info.
import { FieldReader, jsonObject } from '../../support/untrusted';
import type { AzureListed } from './blobs';
import type { AzureReading, BlobClass } from './reading';
import { isGuid } from './version';
import { WEBJOBS_CONTAINER, webjobsLock } from './webjobs';

export type { AzureKind, AzureReading } from './reading';

export const TF_KEY = 'terraformlockid';

/** Metadata with lower-case names: Azurite lists `Terraformlockid`, the SDK's properties `terraformlockid`. */
export function lowerKeys(metadata: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(metadata)) out[k.toLowerCase()] = v;
  return out;
}

const held = (b: AzureListed) => b.leaseState === 'leased' || b.leaseState === 'breaking';

export function classifyBlob(b: AzureListed, container: string): BlobClass {
  const meta = lowerKeys(b.metadata);
  if (!held(b)) {
    if (meta[TF_KEY] !== undefined)
      return { kind: 'skip', why: `stale Terraform lock info left after a ${b.leaseState} lease (nobody holds it)` };
    if (meta.format === 'lockboard/1') return { kind: 'free' };
    return { kind: 'skip', why: 'a blob with no lease and no lock info (data, such as a Terraform state)' };
  }
  const duration = b.leaseDuration === 'fixed' ? 'fixed' : 'infinite';
  if (meta[TF_KEY]) return terraformLock(b, meta[TF_KEY], duration);
  if (meta.format === 'lockboard/1') return lockboardLock(meta, duration);
  if (container === WEBJOBS_CONTAINER) {
    const singleton = webjobsLock(b, meta, duration);
    if (singleton) return singleton;
  }
  return { kind: 'lock', reading: unknownLease(b, duration) };
}

/** `<key>env:<workspace>`: Terraform's blob for a workspace other than default. */
function workspaceOf(name: string): { key: string; workspace: string } {
  const at = name.lastIndexOf('env:');
  return at > 0 ? { key: name.slice(0, at), workspace: name.slice(at + 4) } : { key: name, workspace: 'default' };
}

function terraformLock(b: AzureListed, encoded: string, duration: AzureReading['duration']): BlobClass {
  const text = /^[A-Za-z0-9+/=\s]+$/.test(encoded) ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const parsed = jsonObject(text);
  if (!parsed)
    return {
      kind: 'lock',
      reading: { ...unknownLease(b, duration), note: 'its terraformlockid metadata is not base64 LockInfo JSON' },
    };
  const reader = new FieldReader(parsed);
  const f = (k: string) => reader.text(k);
  const id = f('ID')?.toLowerCase();
  const created = Date.parse((f('Created') ?? '').replace(/(\.\d{3})\d+/, '$1'));
  const { workspace } = workspaceOf(b.name);
  return {
    kind: 'lock',
    reading: {
      kind: 'terraform',
      label: 'Terraform state lock (azurerm)',
      ...(f('Who') ? { identity: f('Who') } : {}),
      ...(isGuid(id) ? { leaseId: id } : {}),
      duration,
      details: [
        ['Who', f('Who') ?? '—'],
        ['Operation', f('Operation') ?? '—'],
        ['Created', f('Created') ?? '—'],
        ['Path', f('Path') ?? '—'],
        ['Workspace', workspace],
        ['Terraform version', f('Version') ?? '—'],
        ...(f('Info') ? [['Info', f('Info')!] as [string, string]] : []),
        ['Terraform lock info ID', f('ID') ?? '—'],
        ...(f('ID') ? [['Equivalent command', `terraform force-unlock ${f('ID')}`] as [string, string]] : []),
      ],
      ...(Number.isFinite(created) ? { acquiredMs: created } : {}),
      ...(f('Operation') ? { purpose: f('Operation') } : {}),
      ...(isGuid(id) ? {} : { note: 'its LockInfo ID is no GUID, so it is not the lease id: cleared by a break' }),
      ...(reader.dropped.length ? { dropped: [...new Set(reader.dropped)] } : {}),
    },
  };
}

function lockboardLock(meta: Record<string, string>, duration: AzureReading['duration']): BlobClass {
  const num = (k: string) => (/^\d{1,15}$/.test(meta[k] ?? '') ? Number(meta[k]) : undefined);
  const token = meta.token?.toLowerCase();
  const [ttlMs, refreshMs, acquiredMs] = [num('ttl_ms'), num('refresh_ms'), num('acquired_ms')];
  return {
    kind: 'lock',
    reading: {
      kind: 'lockboard',
      label: 'Lockboard lock (Azure lease)',
      ...(meta.identity ? { identity: meta.identity } : {}),
      ...(isGuid(token) ? { leaseId: token } : {}),
      duration,
      details: [
        ['Owner', meta.identity ?? '—'],
        ['Lease', duration === 'fixed' ? `fixed, ${(ttlMs ?? 60_000) / 1000} s, renewed` : 'infinite'],
        ['Fencing token (lease id)', token ?? '—'],
      ],
      ...(acquiredMs !== undefined ? { acquiredMs } : {}),
      ...(meta.purpose ? { purpose: meta.purpose } : {}),
      ...(meta.host ? { host: meta.host } : {}),
      ...(meta.pid ? { pid: meta.pid } : {}),
      ...(ttlMs !== undefined ? { ttlMs } : {}),
      ...(refreshMs !== undefined ? { refreshMs } : {}),
    },
  };
}

function unknownLease(b: AzureListed, duration: AzureReading['duration']): AzureReading {
  return {
    kind: 'lease',
    label: 'Blob lease (holder unknown)',
    duration,
    details: [
      ['Lease', `${duration}, held, lease id unknown`],
      ['Blob size', `${b.size} bytes`],
    ],
    note: 'held, lease id unknown: no lock info names its holder (Azure never reveals another holder’s lease id)',
  };
}
