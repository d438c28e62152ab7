// Delivery claims in Azure Blob Storage (claim-lease.ts): an empty blob `<audit prefix>claims/<key>.json` whose lease
// (`{ owner, until, state }`) is its metadata `lease`; created with If-None-Match: * and replaced (renewed, settled,
// taken over) by a new upload with If-Match: <the ETag read>; a 412 (or 409) is another replica's write. The version
// is the ETag. Removed by a lifecycle management rule on the prefix.
import type { ClaimRecords } from '../../claim-lease';
import type { AzureBlobs } from './blobs';
import { azureStatus } from './errors';

export class AzureClaims implements ClaimRecords {
  constructor(
    private readonly blobs: AzureBlobs,
    private readonly auditPrefix: string,
  ) {}

  private name(key: string): string {
    return `${this.auditPrefix}claims/${key}.json`;
  }

  create(key: string, body: string): Promise<string | null> {
    return this.put(key, body, { ifNoneMatch: '*' });
  }

  async read(key: string): Promise<{ body: string; version: string } | null> {
    const b = await this.blobs.head(this.name(key));
    return b ? { body: b.metadata.lease ?? '', version: b.etag } : null;
  }

  replace(key: string, body: string, version: string): Promise<string | null> {
    return this.put(key, body, { ifMatch: version });
  }

  private async put(key: string, lease: string, cond: { ifNoneMatch?: string; ifMatch?: string }) {
    try {
      return await this.blobs.upload(this.name(key), '{}', { ...cond, metadata: { lease } });
    } catch (err) {
      if (azureStatus(err) === 409 || azureStatus(err) === 412) return null;
      throw err;
    }
  }
}
