// S3 in the registry: s3://BUCKET/PREFIX sources (?conditional-deletes=false: listed read-only), the AWS SDK loaded
// when a source is opened, with its own variables (AWS_REGION, AWS_ENDPOINT_URL_S3 for an emulator, path style).
import type { S3Client } from '@aws-sdk/client-s3';
import { holdOn, isLoopback, missingSdk, runOptions, type OpenOptions, type StoreDefinition } from '../types';
import { judgeAwsError } from '../aws/unavailable';
import { parseS3Source, splitS3LockUrl } from './source';
import { S3_VERSION } from './version';
import { s3Discovery } from './discover';
import { s3Formats } from './lock-formats';

async function s3Client(env: OpenOptions['env']): Promise<S3Client> {
  let sdk: typeof import('@aws-sdk/client-s3');
  try {
    sdk = await import('@aws-sdk/client-s3');
  } catch {
    throw missingSdk('s3:// sources', '@aws-sdk/client-s3');
  }
  const endpoint = env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? (endpoint ? 'us-east-1' : undefined);
  if (!region)
    throw Object.assign(new Error('No AWS region: set AWS_REGION (e.g. AWS_REGION=eu-west-1).'), { code: 'CONFIG' });
  return new sdk.S3Client({
    region,
    // one resolved handler per command class instead of re-sorting the middleware stack on every request: a cold
    // listing sends thousands of GETs (Lockboard adds its own middleware once, before the first request)
    cacheMiddleware: true,
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    ...(endpoint && !env.AWS_ACCESS_KEY_ID
      ? { credentials: { accessKeyId: 'lockboard', secretAccessKey: 'lockboard' } }
      : {}),
  });
}

export const s3: StoreDefinition = {
  kind: 's3',
  formats: s3Formats,
  label: 'S3',
  versionShape: S3_VERSION,
  judgeError: judgeAwsError,
  watchIntervalMs: 3_000,
  schemes: ['s3'],
  form: 's3://BUCKET/PREFIX',
  parse: parseS3Source,
  splitLockUrl: splitS3LockUrl,
  discover: s3Discovery(s3Client),
  hold: async () => (await import('./hold')).s3Holds(s3Client),
  configIssues(env, o) {
    const issues = [];
    if (o.demo && !isLoopback(env.AWS_ENDPOINT_URL_S3))
      issues.push({
        variable: 'LOCKBOARD_DEMO',
        message:
          'demo mode only runs against a local emulator (AWS_ENDPOINT_URL_S3 on 127.0.0.1 or localhost for s3:// sources), never real S3',
      });
    if (!env.AWS_ENDPOINT_URL_S3 && !env.AWS_REGION && !env.AWS_DEFAULT_REGION)
      issues.push({
        variable: 'AWS_REGION',
        message: 'is required for s3:// sources (the region of the buckets, e.g. AWS_REGION=eu-west-1)',
      });
    return issues;
  },
  async open(spec, o) {
    const [{ S3LockStore }, client] = await Promise.all([import('./store'), s3Client(o.env)]);
    return new S3LockStore({
      client,
      bucket: spec.bucket,
      prefix: spec.prefix,
      auditPrefix: o.auditPrefix,
      longHeldMs: o.longHeldMs,
      readOnly: spec.readOnly,
      close: async () => client.destroy(),
    });
  },
  async acquire(spec, name, o) {
    const [{ acquireS3Lock }, { S3LockStore }, client] = await Promise.all([
      import('./acquire'),
      import('./store'),
      s3Client(o.env),
    ]);
    const trail = new S3LockStore({ client, bucket: spec.bucket, auditPrefix: o.auditPrefix });
    const key = name.startsWith(spec.prefix) ? name : spec.prefix + name;
    return holdOn({
      name: `s3://${spec.bucket}/${key}`,
      close: () => client.destroy(),
      acquire: () => acquireS3Lock({ client, bucket: spec.bucket, name: key, ...runOptions(o) }),
      async release(lock, details) {
        const outcome = await lock.release();
        await trail.record({ event: 'released', lock: key, generation: lock.fencingToken, ...details }).catch(() => '');
        return outcome;
      },
    });
  },
};
