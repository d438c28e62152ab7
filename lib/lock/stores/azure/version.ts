// What a version of an Azure lock looks like: the blob's ETag, a dot, and what pins the holder: the lease id where it
// is known (Terraform's LockInfo ID, Lockboard's token), else the lease's duration (`infinite` or `fixed`), which the
// break re-checks. Checked before anything is sent; a malformed one is a usage error.
import type { VersionShape } from '../../store';

const GUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const SHAPE = new RegExp(`^(0x[0-9A-Fa-f]{1,32})\\.(${GUID}|infinite|fixed)$`);

export const AZURE_VERSION: VersionShape = {
  test: (v) => SHAPE.test(v),
  describe:
    'an Azure version is ETAG.LEASE: the blob ETag (0x…), a dot, and the lease id (a GUID) where it is known, else "infinite" or "fixed", as `lockboard status --json` shows it',
};

export const isGuid = (s: string | undefined): s is string => s !== undefined && new RegExp(`^${GUID}$`).test(s);

export interface AzureVersion {
  etag: string;
  /** The lease id the version pins, when the holder's is known. */
  leaseId?: string;
  /** Otherwise the lease's duration as seen. */
  duration?: 'infinite' | 'fixed';
}

export function parseAzureVersion(version: string): AzureVersion {
  const m = SHAPE.exec(version);
  if (!m) throw new Error(`not an Azure version: ${version}`);
  const [, etag = '', rest = ''] = m;
  return rest === 'infinite' || rest === 'fixed' ? { etag, duration: rest } : { etag, leaseId: rest.toLowerCase() };
}

export function azureVersionOf(etag: string, pin: string): string {
  return `${etag.replace(/"/g, '')}.${pin}`;
}
