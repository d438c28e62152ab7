// The cold mixed prefixes the live and ls benchmarks list: GCS bucket `cold` and S3 bucket `cold-s3`, `mixed/`,
// written straight into the emulator's stores (seeding 20 000 objects through HTTP would take longer than the runs).
import type { Emulator } from '@/lib/emulator';
import { mixedObject as gcsMixed } from './formats';
import { mixedObject as s3Mixed } from './s3';

export function seedColdPrefixes(emulator: Emulator, objects: number): void {
  const now = Date.now();
  for (let i = 0; i < objects; i++) {
    const [name, data, metadata] = gcsMixed(i, now);
    emulator.store.insertObject('cold', name, data, metadata ? { metadata } : {}, {}, now);
    const [key, body] = s3Mixed(i, now);
    emulator.s3!.store.put(
      'cold-s3',
      key,
      Buffer.from(body),
      { contentType: 'application/json', metadata: {} },
      {},
      now,
    );
  }
}
