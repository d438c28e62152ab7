// etcd sources: `etcd://HOST:PORT[,HOST:PORT]/PREFIX` (`etcds://` for TLS with `?ca=&cert=&key=` files). A user and
// password come from the URL or ETCD_USERNAME / ETCD_PASSWORD and are never shown. The prefix is the key prefix
// after the first slash: `etcd://h:2379/locks/` reads keys starting `locks/`, `etcd://h:2379//locks/` keys starting
// `/locks/` (python3-etcd3's layout), `etcd://h:2379/` every key.

export interface EtcdSource {
  hosts: string[];
  tls: boolean;
  prefix: string;
  /** As shown everywhere: no credentials. */
  display: string;
  auth?: { username: string; password: string };
  files: { ca?: string; cert?: string; key?: string };
}

const FORM = 'etcd://HOST:PORT[,HOST:PORT]/PREFIX (etcds:// for TLS)';
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/i;

export function parseEtcdSource(raw: string, env: Record<string, string | undefined> = {}): EtcdSource {
  const m = /^(etcds?):\/\/(?:([^@/]*)@)?([^/?#]*)(\/[^?#]*)?(?:\?([^#]*))?$/i.exec(raw);
  if (!m) throw new Error(`Expected ${FORM}, got ${JSON.stringify(raw.replace(/\/\/[^@/]*@/, '//***@'))}.`);
  const tls = m[1]!.toLowerCase() === 'etcds';
  const hosts = m[3]!.split(',').filter(Boolean);
  if (hosts.length === 0) throw new Error(`The etcd URL has no host: ${FORM}.`);
  const bad = hosts.find((h) => !HOST.test(h));
  if (bad) throw new Error(`${JSON.stringify(bad)} is not HOST:PORT (the port is required): ${FORM}.`);
  const prefix = decodeURIComponent((m[4] ?? '/').slice(1));
  const params = new URLSearchParams(m[5] ?? '');
  const unknown = [...params.keys()].find((k) => !['ca', 'cert', 'key'].includes(k));
  if (unknown)
    throw new Error(`Unknown etcd source parameter ${JSON.stringify(unknown)}: only ?ca=, ?cert= and ?key= (files).`);
  const files = {
    ca: params.get('ca') ?? undefined,
    cert: params.get('cert') ?? undefined,
    key: params.get('key') ?? undefined,
  };
  if (!tls && (files.ca || files.cert || files.key))
    throw new Error('?ca=, ?cert= and ?key= are TLS files: use etcds:// for a TLS source.');
  if (Boolean(files.cert) !== Boolean(files.key))
    throw new Error('A client certificate needs both ?cert= and ?key= (PEM files).');
  const [user, pass] = (m[2] ?? '').split(':').map((s) => decodeURIComponent(s));
  const username = user || env.ETCD_USERNAME || '';
  const password = pass ?? (user ? '' : (env.ETCD_PASSWORD ?? ''));
  if (username && !password && !env.ETCD_PASSWORD)
    throw new Error(`The etcd user ${JSON.stringify(username)} has no password: put it in the URL or ETCD_PASSWORD.`);
  const auth = username ? { username, password: password || env.ETCD_PASSWORD || '' } : undefined;
  const shown = hosts.join(',').toLowerCase();
  return {
    hosts,
    tls,
    prefix,
    display: `${tls ? 'etcds' : 'etcd'}://${shown}/${encodePrefix(prefix)}`,
    ...(auth ? { auth } : {}),
    files,
  };
}

function encodePrefix(p: string): string {
  return p.replace(/[?#%\s]/g, (c) => encodeURIComponent(c));
}
