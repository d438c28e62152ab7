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

/** A function giving the addresses of names under `spec` (the base computed once, for a pass over many rows). */
export function addresser(spec: Pick<SourceSpec, 'id' | 'prefix'>): (name: string) => string {
  const base = `${addressBase(spec)}/`;
  return (name) => base + (name.startsWith('/') ? name.replace(/^\/+/, '') : name);
}
