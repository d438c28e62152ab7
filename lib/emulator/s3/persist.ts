// On-disk state for the S3 emulator: the whole store as one JSON snapshot, written (temp file, fsync, rename)
// before each response that changed it. Lock buckets are small; the GCS side keeps a journal for its larger ones.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { S3Object, S3ObjectStore } from './store';

interface Snapshot {
  buckets: { name: string; created: number; objects: (Omit<S3Object, 'data'> & { data: string })[] }[];
}

export function persistS3(dir: string, store: S3ObjectStore): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 's3.json');
  if (existsSync(file)) {
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
    for (const b of snapshot.buckets) {
      const objects = new Map<string, S3Object>();
      for (const o of b.objects) objects.set(o.key, { ...o, data: Buffer.from(o.data, 'base64') });
      store.buckets.set(b.name, { created: b.created, objects });
    }
  }
  store.onChange = () => {
    const snapshot: Snapshot = {
      buckets: [...store.buckets].map(([name, b]) => ({
        name,
        created: b.created,
        objects: [...b.objects.values()].map((o) => ({ ...o, data: o.data.toString('base64') })),
      })),
    };
    const tmp = `${file}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, JSON.stringify(snapshot));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  };
}
