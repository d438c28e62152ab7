// Shared CLI plumbing: flags, durations, configuration from flags or environment, exit codes, errors.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseDurationMs } from '../text/format';
import { storeUnavailable } from '../lock/store-errors';

export { formatDuration } from '../text/format';

import { EXIT } from './exit';

export { EXIT, EXIT_CODES_HELP } from './exit';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const COMMON_OPTIONS = {
  bucket: { type: 'string' },
  endpoint: { type: 'string' },
  prefix: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export const COMMON_HELP = `Common options:
  --bucket NAME     bucket holding the locks (or LOCKBOARD_BUCKET)
  --endpoint URL    GCS JSON API endpoint, e.g. the emulator (or LOCKBOARD_GCS_ENDPOINT; unset = Google Cloud
                    Storage with Application Default Credentials)
  --prefix P        prefix prepended to lock names (or LOCKBOARD_PREFIX; default "locks/"; "" for full names);
                    gs://BUCKET/PREFIX sets the bucket too
  -h, --help        show help`;

export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  argv: string[],
  options: T,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(
      `${(err as Error).message.replace(/\. To specify.*$/s, '')}. Run "lockboard ${command} --help".`,
    );
  }
}

/** A duration flag ("500ms", "30s", "5m", "1h"; a bare number is seconds). */
export function parseDuration(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const ms = parseDurationMs(raw);
  if (ms === null) throw new UsageError(`--${flag} must be a duration like 30s, 5m or 1h, got ${JSON.stringify(raw)}.`);
  return ms;
}

/** Maps storage failures to a message and exit code a user can act on. */
export function storageFailure(err: unknown, bucket: string): { message: string; code: number } | null {
  const status = (err as { status?: unknown; code?: unknown }).status ?? (err as { code?: unknown }).code;
  const text = (err as Error).message ?? String(err);
  if (status === 404 && /bucket/i.test(text)) {
    // the error names the bucket it looked for; the configured one is only a fallback (a source URL sets none)
    const named = (err as { bucket?: unknown }).bucket;
    const which = typeof named === 'string' && named ? named : bucket;
    const message = which ? `Bucket "${which}" does not exist.` : `The bucket does not exist: ${text}`;
    return { message: `${message} Check the source's bucket name.`, code: EXIT.storage };
  }
  if (status === 401 || status === 403) {
    return { message: `Permission denied on bucket "${bucket}": ${text}`, code: EXIT.storage };
  }
  // A source that names the server it cannot reach (Redis, PostgreSQL) says so itself
  if (/^Cannot reach [a-z]+:\/\//.test(text)) return { message: text, code: EXIT.storage };
  if (status === 0 || /ECONNREFUSED|ENOTFOUND|timed out/.test(text)) {
    return {
      message: `Cannot reach the storage endpoint: ${text}. Check --endpoint / LOCKBOARD_GCS_ENDPOINT (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL_DYNAMODB) and that the store is running.`,
      code: EXIT.storage,
    };
  }
  // Every other "store unavailable" (a missing table or grant, an SDK not installed, the service refusing)
  const unavailable = storeUnavailable(err);
  return unavailable === null ? null : { message: unavailable, code: EXIT.storage };
}
