// Console configuration from the environment: one zod schema, parsed once, a clear message naming the bad variable.
import 'server-only';
import { z } from 'zod';
import { parseDurationMs } from '@/lib/format';
import { parsePostgresSource } from '@/lib/lock/stores/postgres/source';
import { parseRedisSource } from '@/lib/lock/stores/redis/source';

const list = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const durationMs = z
  .string()
  .refine((raw) => parseDurationMs(raw) !== null, 'must be a duration like 30m, 2h or 1d')
  .transform((raw) => parseDurationMs(raw)!);

const BUCKET_NAME = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;
const SOURCE = /^(gs|s3):\/\/([^/]+)\/(.*)$/;

/** Where locks are listed: one bucket of a store and a prefix in it ("" = the whole bucket). */
export interface Source {
  /** `gs://bucket/prefix`, `s3://bucket/prefix` or `redis://host:port/db?match=P`, as shown (never credentials). */
  id: string;
  store: 'gcs' | 's3' | 'redis' | 'postgres';
  bucket: string;
  /** The bucket as requests name it (`?bucket=`, a lock's `bucket`): the name on GCS, `s3://name` on S3. */
  bucketId: string;
  prefix: string;
  /** Redis: the URL with its credentials (server-side only) and the SCAN MATCH pattern. */
  url?: string;
  match?: string;
  /** Listed, never cleared: an S3 endpoint configured as lacking conditional deletes (no unconditional DELETE). */
  readOnly?: boolean;
}

function parseSource(raw: string): Source | string {
  if (/^rediss?:\/\//.test(raw)) {
    try {
      const r = parseRedisSource(raw, process.env);
      const bucketId = r.display.replace(/\?.*$/, '');
      return { id: r.display, store: 'redis', bucket: bucketId, bucketId, prefix: '', url: r.url, match: r.match };
    } catch (err) {
      return `a Redis source: ${(err as Error).message}`;
    }
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      const p = parsePostgresSource(raw);
      return { id: p.display, store: 'postgres', bucket: p.display, bucketId: p.display, prefix: '', url: p.url };
    } catch (err) {
      return `a PostgreSQL source: ${(err as Error).message}`;
    }
  }
  // s3://bucket/prefix?conditional-deletes=false: an endpoint without DeleteObject If-Match is listed read-only
  const [path, query] = raw.split('?', 2) as [string, string | undefined];
  if (query !== undefined && !(path.startsWith('s3://') && query === 'conditional-deletes=false'))
    return `"${raw}": the only source option is ?conditional-deletes=false, on s3:// sources`;
  const m = SOURCE.exec(path);
  if (!m)
    return `"${raw}" is not gs://BUCKET/PREFIX, s3://BUCKET/PREFIX or redis://HOST:PORT/DB?match=PATTERN (e.g. gs://tf-state-prod/ or s3://ci-locks/locks/)`;
  const [, scheme, bucket, prefix] = m as unknown as [string, 'gs' | 's3', string, string];
  if (!BUCKET_NAME.test(bucket)) return `"${raw}": "${bucket}" is not a bucket name`;
  if (prefix && (!prefix.endsWith('/') || prefix.startsWith('/')))
    return `"${raw}": the prefix must end with "/" (${scheme}://${bucket}/${prefix}/)`;
  return scheme === 'gs'
    ? { id: `gs://${bucket}/${prefix}`, store: 'gcs', bucket, bucketId: bucket, prefix }
    : {
        id: `s3://${bucket}/${prefix}`,
        store: 's3',
        bucket,
        bucketId: `s3://${bucket}`,
        prefix,
        ...(query ? { readOnly: true } : {}),
      };
}

const schema = z
  .object({
    LOCKBOARD_SOURCES: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined) return undefined;
        const parsed = list(raw).map(parseSource);
        for (const p of parsed) if (typeof p === 'string') ctx.addIssue({ code: 'custom', message: p });
        const sources = parsed.filter((p): p is Source => typeof p !== 'string');
        if (parsed.length === 0) ctx.addIssue({ code: 'custom', message: 'is empty: list gs://BUCKET/PREFIX sources' });
        const ids = sources.map((x) => x.id);
        const dup = ids.find((id, i) => ids.indexOf(id) !== i);
        if (dup) ctx.addIssue({ code: 'custom', message: `lists ${dup} twice` });
        return sources;
      }),
    LOCKBOARD_BUCKET: z.string().regex(BUCKET_NAME, 'must be a GCS bucket name').optional(),
    LOCKBOARD_PREFIXES: z
      .string()
      .optional()
      .refine(
        (raw) => list(raw).every((x) => x.endsWith('/') && !x.startsWith('/')),
        'each prefix must end with "/" and not start with "/"',
      ),
    LOCKBOARD_AUDIT_PREFIX: z
      .string()
      .default('.lockboard/audit/')
      .refine((p) => p.endsWith('/'), 'must end with "/"'),
    LOCKBOARD_GCS_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    /** The AWS SDK's own variable: an S3-compatible endpoint (the emulator), addressed path-style. */
    AWS_ENDPOINT_URL_S3: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    AWS_REGION: z
      .string()
      .regex(/^[a-z0-9-]{2,32}$/, 'must be an AWS region such as eu-west-1')
      .optional(),
    NEXTAUTH_SECRET: z
      .string()
      .min(16, 'must be set to a random string of at least 16 characters (openssl rand -base64 32)'),
    LOCKBOARD_OPERATORS: z.string().optional().transform(list),
    LOCKBOARD_VIEWERS: z.string().optional().transform(list),
    LOCKBOARD_DEMO: z
      .enum(['0', '1', ''])
      .optional()
      .transform((v) => v === '1'),
    LOCKBOARD_DEMO_ACCOUNTS: z
      .enum(['0', '1', ''])
      .optional()
      .transform((v) => v === '1'),
    LOCKBOARD_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** POST /api/gcs-events: the push subscription's OIDC audience and service account (production)… */
    LOCKBOARD_PUSH_AUDIENCE: z.string().min(1).optional(),
    LOCKBOARD_PUSH_SERVICE_ACCOUNT: z
      .email({ error: "must be the e-mail of the push subscription's service account" })
      .optional(),
    /** …or a shared token (the emulator's pushes and tests) */
    LOCKBOARD_PUSH_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    LOCKBOARD_LONG_HELD: durationMs.optional(),
    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CLIENT_SECRET: z.string().optional(),
    OIDC_ISSUER: z.url({ error: 'must be the issuer URL of your OpenID Connect provider' }).optional(),
    OIDC_CLIENT_ID: z.string().optional(),
    OIDC_CLIENT_SECRET: z.string().optional(),
    NEXTAUTH_URL: z.url({ protocol: /^https?$/, error: 'must be the public http(s) URL of the console' }).optional(),
  })
  .superRefine((env, ctx) => {
    if (env.LOCKBOARD_SOURCES && (env.LOCKBOARD_BUCKET || env.LOCKBOARD_PREFIXES !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['LOCKBOARD_SOURCES'],
        message:
          'replaces LOCKBOARD_BUCKET and LOCKBOARD_PREFIXES: set either LOCKBOARD_SOURCES=gs://BUCKET/PREFIX,... or the two older variables, not both',
      });
    }
    if (!env.LOCKBOARD_SOURCES && !env.LOCKBOARD_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['LOCKBOARD_BUCKET'],
        message:
          'is required (or LOCKBOARD_SOURCES=gs://BUCKET/PREFIX,... for several buckets): say which bucket holds the locks',
      });
    }
    if (env.LOCKBOARD_DEMO_ACCOUNTS && !env.LOCKBOARD_DEMO) {
      ctx.addIssue({
        code: 'custom',
        path: ['LOCKBOARD_DEMO_ACCOUNTS'],
        message: 'demo sign-in accounts can only be enabled with LOCKBOARD_DEMO=1',
      });
    }
    if (env.LOCKBOARD_DEMO && (env.GOOGLE_CLIENT_ID || env.OIDC_ISSUER)) {
      ctx.addIssue({
        code: 'custom',
        path: ['LOCKBOARD_DEMO'],
        message:
          'demo mode (with its shared demo passwords) cannot be combined with Google or OIDC sign-in; unset LOCKBOARD_DEMO in a real deployment',
      });
    }
    const s3 = env.LOCKBOARD_SOURCES?.some((x) => x.store === 's3');
    if (env.LOCKBOARD_DEMO && s3 && !isLoopbackUrl(env.AWS_ENDPOINT_URL_S3)) {
      ctx.addIssue({
        code: 'custom',
        path: ['LOCKBOARD_DEMO'],
        message:
          'demo mode only runs against a local emulator (AWS_ENDPOINT_URL_S3 on 127.0.0.1 or localhost for s3:// sources), never real S3',
      });
    }
    if (s3 && !env.AWS_ENDPOINT_URL_S3 && !env.AWS_REGION && !process.env.AWS_DEFAULT_REGION) {
      ctx.addIssue({
        code: 'custom',
        path: ['AWS_REGION'],
        message: 'is required for s3:// sources (the region of the buckets, e.g. AWS_REGION=eu-west-1)',
      });
    }
    if (env.LOCKBOARD_DEMO && !isLoopbackUrl(env.LOCKBOARD_GCS_ENDPOINT)) {
      ctx.addIssue({
        code: 'custom',
        path: ['LOCKBOARD_DEMO'],
        message:
          'demo mode only runs against a local emulator (LOCKBOARD_GCS_ENDPOINT on 127.0.0.1 or localhost), never real Cloud Storage',
      });
    }
    if (Boolean(env.LOCKBOARD_PUSH_AUDIENCE) !== Boolean(env.LOCKBOARD_PUSH_SERVICE_ACCOUNT)) {
      ctx.addIssue({
        code: 'custom',
        path: ['LOCKBOARD_PUSH_AUDIENCE'],
        message: 'set both LOCKBOARD_PUSH_AUDIENCE and LOCKBOARD_PUSH_SERVICE_ACCOUNT, or neither',
      });
    }
    if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: ['GOOGLE_CLIENT_SECRET'],
        message: 'set both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or neither',
      });
    }
    if (env.OIDC_ISSUER && !(env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_CLIENT_ID'],
        message: 'OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET',
      });
    }
  });

type ParsedEnv = z.output<typeof schema>;
export type ConsoleEnv = Omit<ParsedEnv, 'LOCKBOARD_SOURCES' | 'LOCKBOARD_PREFIXES' | 'LOCKBOARD_BUCKET'> & {
  /** Every configured source, from LOCKBOARD_SOURCES or LOCKBOARD_BUCKET + LOCKBOARD_PREFIXES (default "locks/"). */
  sources: Source[];
};

function withSources(parsed: ParsedEnv): ConsoleEnv {
  const { LOCKBOARD_SOURCES, LOCKBOARD_BUCKET, LOCKBOARD_PREFIXES, ...rest } = parsed;
  const sources =
    LOCKBOARD_SOURCES ??
    (LOCKBOARD_PREFIXES === undefined ? ['locks/'] : list(LOCKBOARD_PREFIXES)).map((prefix): Source => ({
      id: `gs://${LOCKBOARD_BUCKET}/${prefix}`,
      store: 'gcs',
      bucket: LOCKBOARD_BUCKET!,
      bucketId: LOCKBOARD_BUCKET!,
      prefix,
    }));
  return { ...rest, sources };
}

function isLoopbackUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function parseEnv(source: Record<string, string | undefined>): ConsoleEnv {
  const result = schema.safeParse(source);
  if (result.success) return withSources(result.data);
  const lines = result.error.issues.map((i) => {
    const key = String(i.path[0] ?? 'environment');
    const message = i.code === 'invalid_type' && source[key] === undefined ? 'is required' : i.message;
    return `  ${key} ${message}`;
  });
  throw new ConfigError(
    `Lockboard console configuration is invalid:\n${lines.join('\n')}\nSee README.md, "Configuration".`,
  );
}

let cached: ConsoleEnv | undefined;
export function env(): ConsoleEnv {
  cached ??= parseEnv(process.env);
  return cached;
}
