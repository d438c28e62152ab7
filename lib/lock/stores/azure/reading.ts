// What a format says of a blob: a lock's reading in the store's terms, or why it is none.

export type AzureKind = 'terraform' | 'lease' | 'webjobs' | 'lockboard';

export interface AzureReading {
  kind: AzureKind;
  label: string;
  identity?: string;
  /** The holder's lease id where the blob says it (Terraform's LockInfo ID, Lockboard's token). */
  leaseId?: string;
  duration: 'infinite' | 'fixed';
  details: [string, string][];
  acquiredMs?: number;
  purpose?: string;
  host?: string;
  pid?: string;
  ttlMs?: number;
  refreshMs?: number;
  /** WebJobs: metadata written by the holder right after it acquired (Last-Modified ≈ acquire time). */
  writtenOnAcquire?: boolean;
  note?: string;
  dropped?: string[];
}

/** `free`: Lockboard's lock blob with no lease held (kept after release: its metadata keeps the last token). */
export type BlobClass = { kind: 'lock'; reading: AzureReading } | { kind: 'skip'; why: string } | { kind: 'free' };
