// Delivery claims in S3 (claim-lease.ts): the object `<audit prefix>claims/<key>.json` whose body is the lease
// (`{ owner, until, state }`), created with If-None-Match: * and replaced (renewed, settled, taken over) with
// If-Match: <the ETag read>; a 412 (or 409, a concurrent conditional write) is another replica's write. The version is
// the ETag. Removed by the bucket's lifecycle rule on the audit prefix.
import type { ClaimRecords } from '../../claim-lease';
import { s3Status } from './objects';
import type { S3Objects } from './objects';

export class S3Claims implements ClaimRecords {
  constructor(
    private readonly objects: S3Objects,
    private readonly auditPrefix: string,
  ) {}

  private name(key: string): string {
    return `${this.auditPrefix}claims/${key}.json`;
  }

  create(key: string, body: string): Promise<string | null> {
    return this.put(key, body, { ifNoneMatch: '*' });
  }

  async read(key: string): Promise<{ body: string; version: string } | null> {
    const o = await this.objects.get(this.name(key));
    return o ? { body: o.body.toString('utf8'), version: o.etag } : null;
  }

  replace(key: string, body: string, version: string): Promise<string | null> {
    return this.put(key, body, { ifMatch: version });
  }

  private async put(key: string, body: string, cond: { ifNoneMatch?: '*'; ifMatch?: string }): Promise<string | null> {
    try {
      return await this.objects.put(this.name(key), body, cond);
    } catch (err) {
      if (s3Status(err) === 412 || s3Status(err) === 409) return null;
      throw err;
    }
  }
}
