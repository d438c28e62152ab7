// Delivery claims in Azure Blob Storage (lib/lock/objects/claim-objects.ts): an empty blob
// `<audit prefix>claims/<key>.json` whose lease is its metadata `lease`; created with If-None-Match: * and replaced
// (renewed, settled, taken over) by a new upload with If-Match: <the ETag read>; a 412 (or 409) is another replica's
// write. The version is the ETag. Removed by a lifecycle management rule on the prefix.
import { ObjectClaims } from '../../objects/claim-objects';
import type { AzureBlobs } from './blobs';
import { azureStatus } from './errors';

export function azureClaims(blobs: AzureBlobs, auditPrefix: string): ObjectClaims {
  return new ObjectClaims(
    {
      async put(name, lease, version) {
        const cond = version === null ? { ifNoneMatch: '*' } : { ifMatch: version };
        try {
          return await blobs.upload(name, '{}', { ...cond, metadata: { lease } });
        } catch (err) {
          if (azureStatus(err) === 409 || azureStatus(err) === 412) return null;
          throw err;
        }
      },
      async get(name) {
        const b = await blobs.head(name);
        return b && { lease: b.metadata.lease ?? '', version: b.etag };
      },
    },
    auditPrefix,
  );
}
