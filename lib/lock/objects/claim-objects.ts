// Delivery claims as leases (claim-lease.ts) in an object store (GCS, S3, Azure Blob): the object
// `<audit prefix>claims/<key>.json`, created only if absent and replaced only at the version read (a generation, an
// ETag), each one conditional write of the store's own; how the lease is kept (body or metadata) is the store's.
import type { ClaimRecords } from '../claim-lease';

/** One store's conditional put and read of the object `name`; `version: null` means only if absent. */
interface LeaseObjects {
  /** The new version, or null when the condition failed (another replica's write). */
  put(name: string, lease: string, version: string | null): Promise<string | null>;
  /** The lease as kept and the object's version, or null when absent. */
  get(name: string): Promise<{ lease: string; version: string } | null>;
}

export class ObjectClaims implements ClaimRecords {
  constructor(
    private readonly objects: LeaseObjects,
    private readonly auditPrefix: string,
  ) {}

  private name(key: string): string {
    return `${this.auditPrefix}claims/${key}.json`;
  }

  create(key: string, body: string): Promise<string | null> {
    return this.objects.put(this.name(key), body, null);
  }

  async read(key: string): Promise<{ body: string; version: string } | null> {
    const o = await this.objects.get(this.name(key));
    return o && { body: o.lease, version: o.version };
  }

  replace(key: string, body: string, version: string): Promise<string | null> {
    return this.objects.put(this.name(key), body, version);
  }
}
