// The console's sources from the environment: LOCKBOARD_SOURCES (comma-separated source URLs, each parsed by its
// store's definition), or the older single-bucket form (LOCKBOARD_BUCKET + LOCKBOARD_PREFIXES).
import 'server-only';
import { parseSource, type SourceSpec } from '@/lib/lock/stores';

export const list = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Sources, comma-separated; a comma inside one (etcd's `etcd://h1:2379,h2:2379/p`) is followed by no `scheme://`. */
export const sourceList = (raw: string) =>
  raw
    .split(/,(?=\s*[a-z][a-z0-9+.-]*:\/\/)/i)
    .map((s) => s.trim())
    .filter(Boolean);

/** Where locks are listed: a parsed source URL (the registry's SourceSpec) and its store's kind. */
export type Source = SourceSpec & { store: string };

export function parseSourceEntry(raw: string): Source | string {
  try {
    const spec = parseSource(raw, process.env);
    return { ...spec, store: spec.kind };
  } catch (err) {
    return (err as Error).message;
  }
}

/** LOCKBOARD_SOURCES, or the older single-bucket form (LOCKBOARD_BUCKET of Cloud Storage + LOCKBOARD_PREFIXES). */
export function configuredSources(env: {
  LOCKBOARD_SOURCES?: Source[];
  LOCKBOARD_BUCKET?: string;
  LOCKBOARD_PREFIXES?: string;
}): Source[] {
  if (env.LOCKBOARD_SOURCES) return env.LOCKBOARD_SOURCES;
  if (!env.LOCKBOARD_BUCKET) return [];
  const prefixes = env.LOCKBOARD_PREFIXES === undefined ? ['locks/'] : list(env.LOCKBOARD_PREFIXES);
  // a bad prefix is named by its own rule (LOCKBOARD_PREFIXES); it is no source
  return prefixes
    .map((prefix) => parseSourceEntry(`gs://${env.LOCKBOARD_BUCKET}/${prefix}`))
    .filter((s): s is Source => typeof s !== 'string');
}
