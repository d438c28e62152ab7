// WebJobs / Azure Functions singletons (Azure/azure-webjobs-sdk BlobLeaseDistributedLockManager): container
// azure-webjobs-hosts, blobs locks/<hostId>/<Function.FullName>[.<scopeId>], `.Listener` for listener locks, and the
// host's primary lock locks/<hostId>/host; fixed leases (15 s functions, 60 s listeners) with service-generated ids,
// renewed by the host; `FunctionInstance` in metadata (written right after acquiring) on function locks only.
import type { AzureListed } from './blobs';
import type { AzureReading, BlobClass } from './reading';

export const WEBJOBS_CONTAINER = 'azure-webjobs-hosts';

/** `locks/<hostId>/<Function>[.<scope>]`, `.Listener` and the host's primary lock `locks/<hostId>/host`. */
export function webjobsLock(
  b: AzureListed,
  meta: Record<string, string>,
  duration: AzureReading['duration'],
): BlobClass | null {
  const m = /^locks\/([^/]+)\/([^/]+)$/.exec(b.name);
  if (!m) return null;
  const [, hostId = '', rest = ''] = m;
  const instance = meta.functioninstance;
  const role =
    rest === 'host' ? 'the host’s primary lock' : rest.endsWith('.Listener') ? 'a listener lock' : 'a function lock';
  const fn = rest === 'host' ? '—' : rest.replace(/\.Listener$/, '');
  return {
    kind: 'lock',
    reading: {
      kind: 'webjobs',
      label: 'WebJobs / Functions singleton',
      ...(instance ? { identity: `invocation ${instance}` } : {}),
      duration,
      details: [
        ['Host id', hostId],
        ['Function', fn],
        ['Lock', role],
        ['Function instance', instance ?? 'not recorded (listener and host locks carry no owner)'],
      ],
      ...(instance ? { writtenOnAcquire: true } : {}),
    },
  };
}
