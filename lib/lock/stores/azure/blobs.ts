// The one place that talks to a container: List Blobs with metadata (5 000 a page), properties, lease operations and
// conditional writes, each answer's Date header kept as Azure's clock. Lease ids and ETags pass through as given.
import type { BlobItem, ContainerClient } from '@azure/storage-blob';
import { DateHeaderClock } from '../../support/date-clock';
import { azureStatus, azureUnavailable } from './errors';

type LeaseState = 'available' | 'leased' | 'expired' | 'breaking' | 'broken';

/** One blob as listed (or as its properties read it): what every format needs, no body. */
export interface AzureListed {
  name: string;
  /** Without quotes: `0x8DC…`. */
  etag: string;
  lastModifiedMs: number;
  createdMs: number;
  size: number;
  leaseState: LeaseState;
  leaseDuration?: 'infinite' | 'fixed';
  /** Metadata as the service names it (Azurite lists Terraform's key as `Terraformlockid`). */
  metadata: Record<string, string>;
}

interface Conditions {
  leaseId?: string;
  ifMatch?: string;
  ifNoneMatch?: string;
}

const PAGE_SIZE = 5_000;
const quoted = (etag: string | undefined) => (etag === undefined ? undefined : /^"/.test(etag) ? etag : `"${etag}"`);
const bare = (etag: string | undefined) => (etag ?? '').replace(/"/g, '');

export class AzureBlobs {
  private readonly clock = new DateHeaderClock();

  constructor(
    readonly client: ContainerClient,
    readonly source: string,
    readonly endpoint: string,
  ) {}

  now(): number {
    return this.clock.now();
  }

  /** One request, its Date header read (on an error too), an unreachable service said in Azure's words. */
  private async call<T extends { date?: Date }>(fn: () => Promise<T>): Promise<T> {
    const sentAt = Date.now();
    try {
      const r = await fn();
      this.clock.observe(r.date?.toUTCString(), sentAt);
      return r;
    } catch (err) {
      const date = (err as { response?: { headers?: { get(n: string): string | undefined } } }).response?.headers;
      this.clock.observe(date?.get('date'), sentAt);
      throw azureUnavailable(err, this.source, this.endpoint);
    }
  }

  /** One List Blobs page with metadata (lease state, duration, ETag and metadata of every blob, no body). */
  async list(prefix: string, token?: string, pageSize = PAGE_SIZE): Promise<{ items: AzureListed[]; next?: string }> {
    const pages = this.client
      .listBlobsFlat({ includeMetadata: true, ...(prefix ? { prefix } : {}) })
      .byPage({ maxPageSize: pageSize, ...(token ? { continuationToken: token } : {}) });
    const page = await this.call(
      async () => (await pages.next()).value as Awaited<ReturnType<typeof pages.next>>['value'],
    );
    const items = (page.segment?.blobItems ?? []).map(listedOf);
    return { items, ...(page.continuationToken ? { next: page.continuationToken } : {}) };
  }

  /** The blob's properties and metadata now, or null when there is none. */
  async head(name: string): Promise<AzureListed | null> {
    try {
      const p = await this.call(() => this.client.getBlobClient(name).getProperties());
      return listedFrom(name, p, p.metadata);
    } catch (err) {
      if (azureStatus(err) === 404) return null;
      throw err;
    }
  }

  async download(name: string): Promise<Buffer | null> {
    try {
      return await this.client.getBlobClient(name).downloadToBuffer();
    } catch (err) {
      if (azureStatus(err) === 404) return null;
      throw azureUnavailable(err, this.source, this.endpoint);
    }
  }

  /** Creates or replaces a block blob under conditions; resolves to its new ETag. */
  async upload(name: string, body: string, o: Conditions & { metadata?: Record<string, string> } = {}) {
    const r = await this.call(() =>
      this.client.getBlockBlobClient(name).upload(body, Buffer.byteLength(body), {
        ...(o.metadata ? { metadata: o.metadata } : {}),
        conditions: conditionsOf(o),
      }),
    );
    return bare(r.etag);
  }

  async setMetadata(name: string, metadata: Record<string, string>, o: Conditions): Promise<string> {
    const r = await this.call(() =>
      this.client.getBlobClient(name).setMetadata(metadata, { conditions: conditionsOf(o) }),
    );
    return bare(r.etag);
  }

  /** Acquires a lease with the proposed id (seconds 15–60, or -1 for infinite). */
  async acquireLease(name: string, leaseId: string, seconds: number, o: Conditions = {}): Promise<void> {
    const lease = this.client.getBlobClient(name).getBlobLeaseClient(leaseId);
    await this.call(() => lease.acquireLease(seconds, { conditions: conditionsOf(o) }));
  }

  async renewLease(name: string, leaseId: string): Promise<void> {
    await this.call(() => this.client.getBlobClient(name).getBlobLeaseClient(leaseId).renewLease());
  }

  async releaseLease(name: string, leaseId: string): Promise<void> {
    await this.call(() => this.client.getBlobClient(name).getBlobLeaseClient(leaseId).releaseLease());
  }

  /** Breaks whoever's lease it is (no lease id), after `periodSeconds`, if the blob is still the ETag given. */
  async breakLease(name: string, periodSeconds: number, ifMatch: string): Promise<void> {
    const lease = this.client.getBlobClient(name).getBlobLeaseClient();
    await this.call(() => lease.breakLease(periodSeconds, { conditions: { ifMatch: quoted(ifMatch) } }));
  }
}

function conditionsOf(o: Conditions) {
  return {
    ...(o.leaseId ? { leaseId: o.leaseId } : {}),
    ...(o.ifMatch ? { ifMatch: quoted(o.ifMatch) } : {}),
    ...(o.ifNoneMatch ? { ifNoneMatch: o.ifNoneMatch } : {}),
  };
}

function listedOf(b: BlobItem): AzureListed {
  return listedFrom(b.name, b.properties, b.metadata);
}

/** A blob as the store reads it, from a listing's item or a HEAD: the same properties under the same names. */
function listedFrom(
  name: string,
  p: {
    etag?: string;
    lastModified?: Date;
    createdOn?: Date;
    contentLength?: number;
    leaseState?: string;
    leaseDuration?: AzureListed['leaseDuration'];
  },
  metadata: Record<string, string> | undefined,
): AzureListed {
  return {
    name,
    etag: bare(p.etag),
    lastModifiedMs: p.lastModified?.getTime() ?? 0,
    createdMs: p.createdOn?.getTime() ?? p.lastModified?.getTime() ?? 0,
    size: p.contentLength ?? 0,
    leaseState: (p.leaseState ?? 'available') as LeaseState,
    ...(p.leaseDuration ? { leaseDuration: p.leaseDuration } : {}),
    metadata: metadata ?? {},
  };
}
