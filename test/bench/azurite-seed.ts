// Seeding a large container for `npm run bench -- scale-azure`. Azurite's API slows as a container grows: its Loki
// store finds a blob by scanning every blob's document, so each upload costs O(n) (measured here: 176 blobs/s at
// 3 000, 16/s at 27 000; 100 000 would take hours). So the bench seeds one hundred blobs of the mix through the API,
// stops Azurite (which saves its database), copies those documents in Azurite's own database file under the other
// names, each Terraform lock with a lock ID and lease of its own, and starts Azurite again on it: every blob listed
// is then served by Azurite as if uploaded. Blob bodies are not copied: the copies share the template's extents.
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const DB_FILE = '__azurite_db_blob__.json';
const BLOBS = '$BLOBS_COLLECTION$';

interface BlobDoc {
  $loki?: number;
  name: string;
  metadata?: Record<string, string>;
  leaseId?: string;
  properties: { etag?: string; leaseState?: string };
  [k: string]: unknown;
}

interface Collection {
  name: string;
  data: BlobDoc[];
  idIndex: number[] | null;
  maxId: number;
  binaryIndices: Record<string, { name: string; dirty: boolean; values: number[] }>;
}

/** A Terraform lock's metadata for the blob at `key`, lock ID `id` (as the azurerm backend writes it). */
export function terraformLockMetadata(key: string, id: string, who: string, container: string) {
  const info = { ID: id, Operation: 'OperationTypeApply', Info: '', Who: who, Version: '1.11.4' };
  const lockInfo = { ...info, Created: new Date().toISOString(), Path: `${container}/${key}` };
  return { Terraformlockid: Buffer.from(JSON.stringify(lockInfo)).toString('base64') };
}

/** One copy of template document `t` as blob `i` (`keyOf(i)`): its own etag, and its own lock ID and lease. */
function copyOf(t: BlobDoc, i: number, keyOf: (i: number) => string, container: string): BlobDoc {
  const name = keyOf(i);
  const doc: BlobDoc = {
    ...structuredClone(t),
    name,
    properties: { ...t.properties, etag: `"0x${randomBytes(7).toString('hex').toUpperCase()}"` },
  };
  delete doc.$loki;
  const locked = t.metadata?.Terraformlockid !== undefined;
  const id = randomUUID();
  if (locked) doc.metadata = terraformLockMetadata(name, id, `runner-${i}@ci`, container);
  if (t.properties.leaseState === 'leased') doc.leaseId = locked ? id : randomUUID();
  else if (t.metadata?.team !== undefined) doc.metadata = { team: `team-${i % 17}` };
  return doc;
}

const byValue = (a: unknown, b: unknown) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);

/** The collection's Loki indexes as Loki keeps them: ids in data order, each binary index the positions by value. */
function indexAgain(c: Collection): void {
  c.idIndex = c.data.map((d) => d.$loki!);
  const positions = c.data.map((_, i) => i);
  for (const [field, ix] of Object.entries(c.binaryIndices)) {
    const values = [...positions].sort((a, b) => byValue(c.data[a]![field], c.data[b]![field]));
    Object.assign(ix, { dirty: false, values });
  }
}

/**
 * Grows the container in Azurite's stopped database at `location` from its first hundred blobs (`keyOf(0..99)`) to
 * `n`, copy by copy; its Loki indexes are built again as Loki keeps them.
 */
export function multiplyBlobs(location: string, n: number, keyOf: (i: number) => string, container: string): void {
  const file = path.join(location, DB_FILE);
  const db = JSON.parse(fs.readFileSync(file, 'utf8')) as { collections: Collection[] };
  const blobs = db.collections.find((c) => c.name === BLOBS);
  if (!blobs) throw new Error(`${file} has no ${BLOBS}: not an Azurite 3.35 blob database`);
  const template = new Map(blobs.data.map((d) => [d.name, d]));
  for (let i = 100; i < n; i++) {
    const t = template.get(keyOf(i % 100));
    if (!t) throw new Error(`the template blob ${keyOf(i % 100)} is missing from ${file}`);
    const doc = copyOf(t, i, keyOf, container);
    doc.$loki = ++blobs.maxId;
    blobs.data.push(doc);
  }
  indexAgain(blobs);
  fs.writeFileSync(file, JSON.stringify(db));
}
