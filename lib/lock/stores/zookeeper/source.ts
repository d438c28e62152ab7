// ZooKeeper sources: `zookeeper://[user:pass@]host:port[,host:port…]/path` (`zk://` too). Digest credentials come from
// the URL or ZOOKEEPER_AUTH (`user:password`) and are secrets: the display form never carries them.

export interface ZooKeeperSource {
  /** `host:port,host:port` for the client. */
  hosts: string;
  /** The znode path the source covers, `/` or `/a/b` (no trailing slash). */
  path: string;
  /** `user:password` for the digest scheme, when given. */
  digest?: string;
  /** As shown everywhere: `zookeeper://host:port/path`, no credentials. */
  display: string;
}

const FORM = 'zookeeper://HOST:PORT[,HOST:PORT]/PATH';

export function parseZooKeeperSource(raw: string, env: Record<string, string | undefined> = {}): ZooKeeperSource {
  const m = /^(zookeeper|zk):\/\/(?:([^@/]*)@)?([^/?#]+)(\/[^?#]*)?$/i.exec(raw.trim());
  if (!m) {
    const shown = JSON.stringify(raw.replace(/\/\/[^@/]*@/, '//***@'));
    throw new Error(`Expected ${FORM}, got ${shown}.`);
  }
  const [, , userinfo, hostList, rawPath] = m;
  const hosts = hostList!.split(',').map((h) => h.trim());
  for (const h of hosts) {
    if (!/^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(h))
      throw new Error(`${JSON.stringify(h)} is not HOST:PORT (ZooKeeper's client port, e.g. 127.0.0.1:2181): ${FORM}.`);
    const port = Number(h.slice(h.lastIndexOf(':') + 1));
    if (port < 1 || port > 65535) throw new Error(`Port ${port} is not a port number (1-65535).`);
  }
  const path = (rawPath ?? '/').replace(/\/+$/, '') || '/';
  if (/\/\/|\/\.\.?(\/|$)/.test(path) || path.includes('\u0000'))
    throw new Error(`${JSON.stringify(path)} is not a ZooKeeper path (no empty, "." or ".." segments).`);
  const fromUrl = userinfo ? decodeURIComponent(userinfo) : undefined;
  const digest = fromUrl || env.ZOOKEEPER_AUTH || undefined;
  if (digest !== undefined && !/^[^:]+:.+$/.test(digest))
    throw new Error('Digest credentials must be user:password (in the URL or ZOOKEEPER_AUTH).');
  const display = `zookeeper://${hosts.join(',')}${path === '/' ? '/' : path}`;
  return { hosts: hosts.join(','), path, ...(digest ? { digest } : {}), display };
}

/**
 * A lock's name is its znode path without the leading slash (`locks/nightly`), as object names are: it travels in
 * URLs (`/locks/<name>`) where a leading slash would be a double one. A name given with the slash is the same lock; under a source `zookeeper://h/svc`, `api/x`
 * is `svc/api/x` as a GCS name is under its prefix.
 */
export function pathOfName(name: string): string {
  // an absolute path typed after a source (`zookeeper://h/svc /svc/a`) reaches here as `svc//svc/a`: znode paths never
  // hold `//`, so what follows the last one is the path the user meant
  const at = name.lastIndexOf('//');
  return `/${(at >= 0 ? name.slice(at + 1) : name).replace(/^\/+/, '')}`;
}
export const nameOfPath = (path: string): string => path.replace(/^\/+/, '');

/** `/a/b` + `c` → `/a/b/c`, whatever the slashes. */
export function joinPath(parent: string, child: string): string {
  return `${parent === '/' ? '' : parent}/${child}`;
}
