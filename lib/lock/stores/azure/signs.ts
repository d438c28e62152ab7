// What an Azure lease says of its holder (docs/verdict.md), on Azure's clock: a fixed lease (15–60 s) still leased
// longer than any fixed lease lasts since it was first seen (or since its holder wrote its metadata on acquiring) was
// renewed → alive; until then unknown, a read after the longest fixed lease settles it. A lease that stopped renewing
// expires and Azure reports the blob available: no lock is listed then. An infinite lease (Terraform's) is never
// renewed: unknown, only the run it names can settle it.
import type { HolderSign } from '../../verdict/verdict';
import { seconds as secs } from '../../verdict/sign';
import type { AzureReading } from './reading';

/** `heldMs`: how long the lease is known held without a gap; `maxFixedMs`: the longest fixed lease (60 s). */
export function azureSigns(r: AzureReading, heldMs: number, maxFixedMs: number, now: number): HolderSign[] {
  const at = new Date(now).toISOString();
  const from = 'lease state of two reads (List Blobs)';
  if (r.duration === 'infinite')
    return [
      {
        points: 'unknown',
        says: `an infinite lease is never renewed, so Azure cannot show whether its holder${r.identity ? ` (${r.identity})` : ''} still runs; that run (its CI job or host) settles it`,
        fact: `lease infinite, leased; ${r.identity ? `Who ${r.identity}` : 'no lock info'}`,
        from: 'lease state and metadata (List Blobs)',
        at,
      },
    ];
  const fact = `fixed lease, leased; held ${secs(heldMs)} without a gap (a fixed lease lasts at most ${secs(maxFixedMs)})`;
  if (heldMs > maxFixedMs)
    return [
      {
        points: 'alive',
        says: `its fixed lease has stayed leased for ${secs(heldMs)}, longer than a fixed lease lasts without renewal: its holder renews it`,
        fact,
        from,
        at,
      },
    ];
  const settleMs = Math.ceil((maxFixedMs - heldMs + 1000) / 1000) * 1000;
  return [
    {
      points: 'unknown',
      says: `seen leased for ${secs(heldMs)}; a fixed lease still leased after ${secs(maxFixedMs)} proves renewal, and one that stops being renewed becomes available: a read after ${secs(settleMs)} settles it`,
      fact,
      from,
      at,
      settleMs,
    },
  ];
}
