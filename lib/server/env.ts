// Console configuration from the environment: one zod schema, parsed once, a clear message naming the bad variable.
import 'server-only';
import { z } from 'zod';
import { parseDurationMs } from '@/lib/text/format';
import { definitionByKind, SOURCE_FORMS } from '@/lib/lock/stores';
import { configuredSources, list, parseSourceEntry, sourceList, type Source } from './env-sources';

export type { Source } from './env-sources';

const durationMs = z
  .string()
  .refine((raw) => parseDurationMs(raw) !== null, 'must be a duration like 30m, 2h or 1d')
  .transform((raw) => parseDurationMs(raw)!);

const BUCKET_NAME = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;

const schema = z
  .object({
    LOCKBOARD_SOURCES: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined) return undefined;
        const parsed = sourceList(raw).map(parseSourceEntry);
        for (const p of parsed) if (typeof p === 'string') ctx.addIssue({ code: 'custom', message: p });
        const sources = parsed.filter((p): p is Source => typeof p !== 'string');
        if (parsed.length === 0) ctx.addIssue({ code: 'custom', message: `is empty: list sources (${SOURCE_FORMS})` });
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
    /** The AWS SDK's own variable: a DynamoDB-compatible endpoint (dynalite). */
    AWS_ENDPOINT_URL_DYNAMODB: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    AWS_REGION: z
      .string()
      .regex(/^[a-z0-9-]{2,32}$/, 'must be an AWS region such as eu-west-1')
      .optional(),
    NEXTAUTH_SECRET: z
      .string()
      .min(16, 'must be set to a random string of at least 16 characters (openssl rand -base64 32)'),
    LOCKBOARD_OPERATORS: z.string().optional().transform(list),
    LOCKBOARD_VIEWERS: z.string().optional().transform(list),
    /** Grants of roles over lock address globs, and API tokens (lib/server/auth/grants.ts): a JSON or YAML file. */
    LOCKBOARD_ACCESS_FILE: z.string().min(1).optional(),
    /** How long an access file that cannot be used keeps its last good grants before they are withdrawn (5m) */
    LOCKBOARD_ACCESS_GRACE: durationMs.optional(),
    LOCKBOARD_DEMO: z
      .enum(['0', '1', ''])
      .optional()
      .transform((v) => v === '1'),
    LOCKBOARD_DEMO_ACCOUNTS: z
      .enum(['0', '1', ''])
      .optional()
      .transform((v) => v === '1'),
    LOCKBOARD_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Signs the audit records the console writes (HMAC): without it, every record shows as reported by a holder. */
    LOCKBOARD_AUDIT_KEY: z
      .string()
      .min(32, 'must be a random string of at least 32 characters (openssl rand -base64 32)')
      .optional(),
    /** POST /api/gcs-events: the push subscription's OIDC audience and service account (production)… */
    LOCKBOARD_PUSH_AUDIENCE: z.string().min(1).optional(),
    LOCKBOARD_PUSH_SERVICE_ACCOUNT: z
      .email({ error: "must be the e-mail of the push subscription's service account" })
      .optional(),
    /** …or a shared token (the emulator's pushes and tests) */
    LOCKBOARD_PUSH_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    LOCKBOARD_LONG_HELD: durationMs.optional(),
    /** The live view: a full listing of a source with a change feed this often (60s), and a stream's longest life */
    LOCKBOARD_RECONCILE: durationMs.optional(),
    LOCKBOARD_STREAM_MAX: durationMs.optional(),
    /** How far V8 lets the heap grow past what a collection kept, in percent (heap.ts; 0: V8's own, up to 300) */
    LOCKBOARD_HEAP_GROWTH: z
      .string()
      .regex(/^\d{1,3}$/, { error: 'must be a whole number of percent, e.g. 50 (0: V8 decides)' })
      .optional()
      .transform((v) => (v === undefined ? undefined : Number(v))),
    /** Webhooks (lib/server/notify): a JSON or YAML file, re-read when it changes */
    LOCKBOARD_WEBHOOKS_FILE: z.string().min(1, 'must be the path of the webhooks file (JSON or YAML)').optional(),
    /** lockboard_lock_held_seconds{address,verdict}: off unless set; the number of locks reported (oldest first) */
    LOCKBOARD_LOCK_GAUGE: z
      .string()
      .regex(/^(0|1|\d{1,6})$/, { error: 'must be 1 (the 1 000 oldest locks) or how many locks to report, e.g. 500' })
      .optional()
      .transform((v) => (v === undefined || v === '0' ? 0 : v === '1' ? 1_000 : Number(v))),
    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CLIENT_SECRET: z.string().optional(),
    OIDC_ISSUER: z.url({ error: 'must be the issuer URL of your OpenID Connect provider' }).optional(),
    OIDC_CLIENT_ID: z.string().optional(),
    OIDC_CLIENT_SECRET: z.string().optional(),
    /** The ID token / userinfo claim holding the user's groups (grants name them as "group:NAME"). */
    OIDC_GROUPS_CLAIM: z.string().min(1).default('groups'),
    /** The scopes asked for at sign-in, space-separated (add e.g. "groups" where the IdP needs it asked). */
    OIDC_SCOPES: z
      .string()
      .default('openid email profile')
      .refine((s) => s.split(/\s+/).includes('openid'), 'must include "openid" (e.g. "openid email profile groups")'),
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
    // each store's own rules, once per store configured (demo only against local servers, a region for S3…)
    const kinds = new Set(configuredSources(env).map((x) => x.kind));
    const vars: Record<string, string | undefined> = { AWS_DEFAULT_REGION: process.env.AWS_DEFAULT_REGION };
    for (const [k, v] of Object.entries(env)) if (typeof v === 'string') vars[k] = v;
    for (const kind of kinds)
      for (const issue of definitionByKind(kind).configIssues?.(vars, { demo: env.LOCKBOARD_DEMO }) ?? [])
        ctx.addIssue({ code: 'custom', path: [issue.variable], message: issue.message });
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
  return { ...rest, sources: configuredSources({ LOCKBOARD_SOURCES, LOCKBOARD_BUCKET, LOCKBOARD_PREFIXES }) };
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
