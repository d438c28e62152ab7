// The `ls` benchmark's emulator, in a process of its own (as a user's store is): GCS bucket `cold` and S3 bucket
// `cold-s3`, each seeded with the 10 000-object mixed prefixes; prints one JSON line with both URLs.
import { startEmulator } from '@/lib/emulator';
import { seedColdPrefixes } from './cold-seed';

const emulator = await startEmulator({ buckets: ['cold'], s3: { buckets: ['cold-s3'] } });
seedColdPrefixes(emulator, Number(process.argv[2] ?? 10_000));
console.log(JSON.stringify({ gcs: emulator.url, s3: emulator.s3!.url }));
process.on('SIGTERM', () => void emulator.close().then(() => process.exit(0)));
