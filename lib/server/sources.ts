// The configured sources (bucket + prefix) and the one place that decides which source a request or a lock is in.
import 'server-only';
import { env, type Source } from './env';
import { ApiError } from './api-error';

export type { Source } from './env';

/** The source selector's value for every configured source at once. */
export const ALL_SOURCES = 'all';

export function sources(): Source[] {
  return env().sources;
}

function describe(): string {
  const list = sources();
  return list.length
    ? list.map((s) => s.id).join(', ')
    : 'none configured: set LOCKBOARD_SOURCES or LOCKBOARD_PREFIXES';
}

/**
 * The sources a listing covers: `source` is a configured `gs://bucket/prefix` or "all"; the older `prefix`
 * parameter names a prefix of the first source's bucket. Nothing given: the first source.
 */
export function resolveSources(source?: string, prefix?: string): Selection {
  const list = sources();
  if (list.length === 0) throw new ApiError('bad_request', `No sources are configured (${describe()}).`);
  const chosen = matchSources(source, prefix);
  if (!chosen) {
    const asked = source !== undefined ? `Source ${JSON.stringify(source)}` : `Prefix ${JSON.stringify(prefix)}`;
    throw new ApiError('bad_request', `${asked} is not configured; configured: ${describe()} (or "all").`);
  }
  return chosen;
}

export interface Selection {
  /** A configured source id, or "all". */
  id: string;
  sources: Source[];
}

/** Like resolveSources, but undefined for a source or prefix that is not configured (pages show a message). */
/** The configured source `id` names: exactly, or written without the "/" its id ends with (a lock's row names it so). */
export function sourceById(id: string): Source | undefined {
  const list = sources();
  return list.find((s) => s.id === id) ?? list.find((s) => s.id === `${id}/`);
}

function matchSources(source?: string, prefix?: string): Selection | undefined {
  const list = sources();
  if (list.length === 0) return undefined;
  if (source === ALL_SOURCES) return { id: ALL_SOURCES, sources: list };
  const chosen =
    source !== undefined
      ? sourceById(source)
      : prefix !== undefined
        ? list.find((s) => s.bucketId === list[0]!.bucketId && s.prefix === prefix)
        : list[0];
  return chosen && { id: chosen.id, sources: [chosen] };
}

/**
 * The configured source holding lock `name` in `bucket`. Without `bucket`, the most specific source containing the
 * name. A name outside every source, or in equally specific sources of several buckets without `bucket`, is a 400.
 */
export function sourceOfLock(name: string, bucket?: string): Source {
  if (isAuditObject(name)) {
    throw new ApiError(
      'bad_request',
      `"${name}" is an audit event (under ${env().LOCKBOARD_AUDIT_PREFIX}), not a lock.`,
    );
  }
  const inside = sources().filter((s) => (bucket === undefined || s.bucketId === bucket) && sourceContains(s, name));
  if (inside.length === 0) {
    const where = bucket === undefined ? '' : ` of bucket "${bucket}"`;
    throw new ApiError('bad_request', `"${name}"${where} is not inside a configured source (${describe()}).`);
  }
  // The most specific source claims the name (gs://ci/locks/ over a whole-bucket gs://tf-state/); equally specific
  // sources in different buckets are ambiguous: the caller must say which bucket
  const longest = Math.max(...inside.map((s) => s.prefix.length));
  const best = inside.filter((s) => s.prefix.length === longest);
  const buckets = new Set(best.map((s) => s.bucketId));
  if (buckets.size > 1) {
    throw new ApiError(
      'bad_request',
      `"${name}" is inside sources of several buckets (${[...buckets].join(', ')}): say which with "bucket".`,
    );
  }
  return best[0]!;
}

/** Whether lock `name` lies inside source `s` (under its prefix, matching its pattern), the one test of it. */
export function sourceContains(s: Source, name: string): boolean {
  return (
    name.startsWith(s.prefix) && name.length > s.prefix.length && (s.match === undefined || globMatches(s.match, name))
  );
}

/** Whether `name` in `bucket` is an audit event object rather than a lock (a source may cover a whole bucket). */
function isAuditObject(name: string): boolean {
  return name.startsWith(env().LOCKBOARD_AUDIT_PREFIX);
}

/** Redis's glob (SCAN MATCH): `*`, `?`, `[...]`, and `\\` escapes. */
function globMatches(pattern: string, key: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) re += `\\${pattern[++i]}`;
    else if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        re += `[${pattern
          .slice(i + 1, end)
          .replace(/^\^/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's').test(key);
}
