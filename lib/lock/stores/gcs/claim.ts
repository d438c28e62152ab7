// Delivery claims in Cloud Storage (lib/lock/objects/claim-objects.ts): an empty object
// `<audit prefix>claims/<key>.json` whose lease is its custom metadata `lease`; created with ifGenerationMatch=0,
// replaced (renewed, settled, taken over) by a new upload with ifGenerationMatch=<the generation read>: a 412 is
// another replica's write. The version is the generation. Removed by the bucket's lifecycle rule (README "Audit
// retention").
import { ObjectClaims } from '../../objects/claim-objects';
import type { BucketObjects } from './client';
import { statusOf } from './errors';

export function gcsClaims(objects: BucketObjects, auditPrefix: string): ObjectClaims {
  return new ObjectClaims(
    {
      async put(name, lease, version) {
        try {
          const o = await objects.create(name, '{}', { lease }, { ifGenerationMatch: version ?? 0 });
          return String(o.generation);
        } catch (err) {
          if (statusOf(err) === 412) return null;
          throw err;
        }
      },
      async get(name) {
        const o = await objects.get(name);
        return o && { lease: String(o.metadata?.lease ?? ''), version: String(o.generation) };
      },
    },
    auditPrefix,
  );
}
