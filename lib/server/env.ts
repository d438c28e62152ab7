// Console configuration from the environment: one zod schema, parsed once, a clear message naming the bad variable.
import 'server-only';
import { z } from 'zod';
import { parseDurationMs } from '@/lib/format';

const list = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const durationMs = z
  .string()
  .refine((raw) => parseDurationMs(raw) !== null, 'must be a duration like 30m, 2h or 1d')
  .transform((raw) => parseDurationMs(raw)!);

const schema = z
  .object({
    LOCKBOARD_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/, 'must be a GCS bucket name'),
    LOCKBOARD_PREFIXES: z
      .string()
      .optional()
      .transform((raw) => (raw === undefined ? ['locks/'] : list(raw)))
      .refine(
        (p) => p.every((x) => x.endsWith('/') && !x.startsWith('/')),
        'each prefix must end with "/" and not start with "/"',
      ),
    LOCKBOARD_AUDIT_PREFIX: z
      .string()
      .default('.lockboard/audit/')
      .refine((p) => p.endsWith('/'), 'must end with "/"'),
    LOCKBOARD_GCS_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
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
    LOCKBOARD_LONG_HELD: durationMs.optional(),
    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CLIENT_SECRET: z.string().optional(),
    OIDC_ISSUER: z.url({ error: 'must be the issuer URL of your OpenID Connect provider' }).optional(),
    OIDC_CLIENT_ID: z.string().optional(),
    OIDC_CLIENT_SECRET: z.string().optional(),
    NEXTAUTH_URL: z.url({ protocol: /^https?$/, error: 'must be the public http(s) URL of the console' }).optional(),
  })
  .superRefine((env, ctx) => {
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
    if (env.LOCKBOARD_DEMO && !isLoopbackUrl(env.LOCKBOARD_GCS_ENDPOINT)) {
      ctx.addIssue({
        code: 'custom',
        path: ['LOCKBOARD_DEMO'],
        message:
          'demo mode only runs against a local emulator (LOCKBOARD_GCS_ENDPOINT on 127.0.0.1 or localhost), never real Cloud Storage',
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

export type ConsoleEnv = z.output<typeof schema>;

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
  if (result.success) return result.data;
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
