// The S3 side of the emulator through the official AWS SDK v3 client (path style, any credentials).
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { startEmulator, type Emulator } from '@/lib/emulator';

export function s3ClientFor(url: string): S3Client {
  return new S3Client({
    region: 'us-east-1',
    endpoint: url,
    forcePathStyle: true,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
}

export interface S3Target {
  emulator: Emulator;
  client: S3Client;
  url: string;
  close(): Promise<void>;
}

export async function startS3(buckets: string[] = ['locks']): Promise<S3Target> {
  const emulator = await startEmulator({ s3: {} });
  const client = s3ClientFor(emulator.s3!.url);
  for (const b of buckets) await client.send(new CreateBucketCommand({ Bucket: b }));
  return {
    emulator,
    client,
    url: emulator.s3!.url,
    close: async () => {
      client.destroy();
      await emulator.close();
    },
  };
}
