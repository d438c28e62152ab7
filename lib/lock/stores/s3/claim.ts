// Delivery claims in S3 (lib/lock/objects/claim-objects.ts): the object `<audit prefix>claims/<key>.json` whose body
// is the lease, created with If-None-Match: * and replaced (renewed, settled, taken over) with If-Match: <the ETag
// read>; a 412 (or 409, a concurrent conditional write) is another replica's write. The version is the ETag. Removed
// by the bucket's lifecycle rule on the audit prefix.
import { ObjectClaims } from '../../objects/claim-objects';
import { s3Status, type S3Objects } from './objects';

export function s3Claims(objects: S3Objects, auditPrefix: string): ObjectClaims {
  return new ObjectClaims(
    {
      async put(name, lease, version) {
        try {
          return await objects.put(name, lease, version === null ? { ifNoneMatch: '*' } : { ifMatch: version });
        } catch (err) {
          if (s3Status(err) === 412 || s3Status(err) === 409) return null;
          throw err;
        }
      },
      async get(name) {
        const o = await objects.get(name);
        return o && { lease: o.body.toString('utf8'), version: o.etag };
      },
    },
    auditPrefix,
  );
}
