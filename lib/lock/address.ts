// A lock's address: its source as configured (never its credentials or query) joined with its name, in the form the
// CLI takes (`gs://bucket/prefix/name`, `redis://host:6379/0/key`, `kubernetes://namespace/name`, `file:///dir/name`).
// One rule for every store, from the registry's SourceSpec: grants (lib/server/auth/grants.ts) are globs over it.
import type { SourceSpec } from './stores/types';

/** The part of a source's address its lock names are joined to: its id without query, without its name prefix. */
export function addressBase(spec: Pick<SourceSpec, 'id' | 'prefix'>): string {
  const id = spec.id.replace(/[?#].*$/s, '');
  // a source with no authority (`kubernetes://`: every namespace; `file:///`) keeps its scheme's slashes but the one
  // its names are joined with: `kubernetes://` + `ns/name` is `kubernetes://ns/name`, never `kubernetes:/ns/name`
  const bare = /^([a-z][a-z0-9+.-]*:)(\/*)$/i.exec(id);
  if (bare) return `${bare[1]}${bare[2]!.slice(1)}`;
  let base = id.replace(/\/+$/, '');
  // names under a prefixed source carry the prefix (gs://b/p/ holds "p/x"): the base stops before it
  const prefix = spec.prefix.replace(/\/+$/, '');
  if (prefix && base.endsWith(`/${prefix}`)) base = base.slice(0, base.length - prefix.length - 1);
  return base;
}

/** The address of lock `name` under `spec`. */
export function lockAddress(spec: Pick<SourceSpec, 'id' | 'prefix'>, name: string): string {
  return `${addressBase(spec)}/${name.replace(/^\/+/, '')}`;
}

type Parse = (source: string) => Pick<SourceSpec, 'id' | 'prefix'>;

function parsed(parse: Parse, source: string): Pick<SourceSpec, 'id' | 'prefix'> | undefined {
  try {
    return parse(source);
  } catch {
    return undefined;
  }
}

/**
 * A lock's address taken apart: the most specific source whose address of the rest is `address` itself (credentials
 * in it aside), so every address the console shows (`kubernetes://team-a/leader`, `redis://h:6379/0/lock:jobs`) is
 * one the CLI takes. `parse` is the registry's source parser; undefined where no split gives back the address.
 */
export function splitAddress(address: string, parse: Parse): { source: string; name: string } | undefined {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^?#]*)$/i.exec(address);
  if (!m) return undefined;
  const wanted = `${m[1]}${m[2]!.replace(/^[^/@]*@/, '')}`;
  const parts = m[2]!.split('/');
  // a source in its own right (`kubernetes://team-a`) is not read as an every-namespace source's lock `team-a`
  const isSource = parsed(parse, address) !== undefined;
  for (let i = parts.length - 1; i >= 0; i--) {
    const rest = parts.slice(i).join('/');
    const source = m[1] + parts.slice(0, i).join('/');
    const spec = rest && !(i === 0 && isSource) ? parsed(parse, source) : undefined;
    if (!spec) continue;
    const name = rest.startsWith(spec.prefix) ? rest : spec.prefix + rest;
    if (lockAddress(spec, name) === wanted) return { source, name };
  }
  return undefined;
}
