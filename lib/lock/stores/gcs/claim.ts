// Delivery claims in Cloud Storage (claim-lease.ts): an empty object `<audit prefix>claims/<key>.json` whose lease
// (`{ owner, until, state }`) is its custom metadata `lease`; created with ifGenerationMatch=0, replaced (renewed,
// settled, taken over) by a new upload with ifGenerationMatch=<the generation read>: a 412 is another replica's
// write. The version is the generation. Removed by the bucket's lifecycle rule (README "Audit retention").
import type { ClaimRecords } from '../../claim-lease';
import type { BucketObjects } from './client';
import { statusOf } from './errors';

export class GcsClaims implements ClaimRecords {
  constructor(
    private readonly objects: BucketObjects,
    private readonly auditPrefix: string,
  ) {}

  private name(key: string): string {
    return `${this.auditPrefix}claims/${key}.json`;
  }

  create(key: string, body: string): Promise<string | null> {
    return this.put(key, body, 0);
  }

  async read(key: string): Promise<{ body: string; version: string } | null> {
    const o = await this.objects.get(this.name(key));
    if (!o) return null;
    return { body: String(o.metadata?.lease ?? ''), version: String(o.generation) };
  }

  replace(key: string, body: string, version: string): Promise<string | null> {
    return this.put(key, body, version);
  }

  /** The whole claim in one upload, only over generation `match` (0: only if absent). */
  private async put(key: string, lease: string, match: string | number): Promise<string | null> {
    try {
      const o = await this.objects.create(this.name(key), '{}', { lease }, { ifGenerationMatch: match });
      return String(o.generation);
    } catch (err) {
      if (statusOf(err) === 412) return null;
      throw err;
    }
  }
}
