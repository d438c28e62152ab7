// One release rule per lock in its dialog (#52): a certmagic lock (held by a temporary hold) is cleared in two
// conditional steps, and its store rule says both, as its format's release note does.
import { describe, expect, it } from 'vitest';
import { certmagic } from '@/lib/lock/objects/formats/certmagic';
import { gcsTerms } from '@/lib/lock/stores/gcs/words';
import type { LockInfo } from '@/lib/lock/types';

const lock = (o: Partial<LockInfo>) => ({ releaseRule: 'delete', ...o }) as LockInfo;

describe("GCS's release rule follows the format's release", () => {
  it('says the PATCH and the DELETE for a lock held by a temporary hold, one DELETE otherwise', () => {
    const held = gcsTerms(lock({ releaseRule: certmagic.release, expiresAt: new Date().toISOString() }));
    expect(held.rule).toMatch(/PATCH clearing the temporary hold, then one DELETE/);
    expect(certmagic.releaseNote).toMatch(/Clears the temporary hold .* then deletes/);
    for (const other of [lock({ ttlMs: 30_000 }), lock({ expiresAt: new Date().toISOString() }), lock({})])
      expect(gcsTerms(other).rule).toMatch(/^Cloud Storage rule: one DELETE with ifGenerationMatch/);
  });
});
