// Discovery, an optional capability of a store (`lockboard discover`): from a store without a path (`gs://`,
// `redis://h:p`, `postgres://h/`) to the sources under it (buckets, databases, tables, a whole keyspace), each then
// listed through the store exactly as `lockboard ls` lists it, so discovery finds what `ls` would list. Read-only:
// a store's roots are found by listing, never by writing, claiming or locking.

import { LockOptionsError } from '../errors';

/** A target its store does not take: a usage error (CLI 2) naming the form it takes. */
export class TargetError extends LockOptionsError {
  constructor(message: string) {
    super(message);
    this.name = 'TargetError';
  }
}

/** What the driver gives a store while it finds the roots under one target. */
interface DiscoverContext {
  env: Record<string, string | undefined>;
  /** Counts one request to the store against the target's budget; false once spent (ask no more). */
  spend(): boolean;
  /** At most this many roots are wanted (the rest are said to exist, not listed). */
  limit: number;
}

interface DiscoveredRoots {
  /** Source URLs under the target, each one `ls` takes (credentials as the target gave them). */
  roots: string[];
  /** Containers seen but not readable, in the store's words ("bucket x: storage.objects.list denied"). */
  problems: string[];
  /** More roots existed than were returned (the limit or the request budget). */
  capped?: boolean;
}

export interface Discovery {
  /** The target's form, for help and messages: `gs://`, `redis://HOST:PORT`. */
  target: string;
  /** The roots under `target`; throws (an Error in the store's words) when the target cannot be reached. */
  roots(target: string, c: DiscoverContext): Promise<DiscoveredRoots>;
  /**
   * The narrower source that holds the locks whose names (relative to the root's prefix) begin with `group`
   * (`gs://b/` + `envs/` → `gs://b/envs/`; `kubernetes://` + `ci/` → `kubernetes://ci`); absent: the root itself.
   */
  narrow?(root: string, group: string): string | undefined;
  /**
   * The lock sources of a Terraform backend block of `type` (its attributes, `-backend-config` files merged in) where
   * this store keeps that backend's locks; undefined for a backend not its own. `problems` say why a block of its own
   * names no lock (no bucket given, a backend configured to take no lock).
   */
  terraform?(type: string, attributes: Record<string, string>): { sources: string[]; problems: string[] } | undefined;
  /**
   * The target that discovers the store a configured source `url` is on (the console's sources page); absent:
   * the source's scheme and server with no path (`redis://h:6379/0?match=x*` → `redis://h:6379/`).
   */
  targetOf?(url: string): string;
  /**
   * Whether the configured source `configured` already lists the source `found` (both ids, as `ls` takes them);
   * absent: the same, or `found` under a configured one with no options (`gs://b/` covers `gs://b/envs/`).
   */
  covers?(configured: string, found: string): boolean;
}

/** The target of a configured source's server: its scheme, credentials and host, no path or options. */
export function serverTarget(url: string): string {
  const u = new URL(url);
  const auth = u.username ? `${u.username}${u.password ? `:${u.password}` : ''}@` : '';
  return `${u.protocol}//${auth}${u.host}/`;
}

/** An object store's narrower source: the root's prefix and a group that is a folder (`gs://b/` + `envs/`). */
export function narrowToFolder(root: string, group: string): string | undefined {
  return group.endsWith('/') ? `${root.replace(/\?.*$/s, '')}${group}` : undefined;
}

/** The folder of a Terraform state key, as a source prefix: `envs/prod/terraform.tfstate` → `envs/prod/`. */
export function folderOf(key: string | undefined): string {
  const at = key?.lastIndexOf('/') ?? -1;
  return at > 0 ? key!.slice(0, at + 1).replace(/^\/+/, '') : '';
}

/** A target that must be a URL (`redis://h:p`): parsed, or a TargetError naming the form. */
export function targetUrl(target: string, form: string): URL {
  try {
    return new URL(target);
  } catch {
    throw new TargetError(`expected ${form}, got ${JSON.stringify(target.replace(/\/\/[^@/]*@/, '//***@'))}`);
  }
}

/** A target naming every container (`gs://`) or one (`gs://b`): that one's source, or none (list them). */
export function oneContainer(target: string, scheme: string): string | undefined {
  const m = new RegExp(`^${scheme}://([^/?#]*)/?$`).exec(target);
  if (!m) throw new TargetError(`expected ${scheme}:// or ${scheme}://BUCKET, got ${JSON.stringify(target)}`);
  return m[1] ? `${scheme}://${m[1]}/` : undefined;
}

/** A store whose target is its own root (one walk covers it): `kubernetes://`, `etcd://h:p`, `file:///dir`. */
export function selfRoot(root: string): DiscoveredRoots {
  return { roots: [root], problems: [] };
}
