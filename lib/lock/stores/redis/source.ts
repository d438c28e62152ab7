// Redis sources: `redis://[user:pass@]host:port/db?match=PATTERN` (`rediss://` for TLS). The password is a secret:
// the display form never carries it, and REDISCLI_AUTH-style environment supplies one the URL lacks.

interface RedisSource {
  /** For the client: with credentials, without `match`. */
  url: string;
  /** As shown everywhere: `redis://host:port/db?match=…`, no credentials. */
  display: string;
  match: string;
}

export function parseRedisSource(raw: string, env: Record<string, string | undefined> = {}): RedisSource {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(
      `Expected redis://host:port/db?match=PATTERN, got ${JSON.stringify(raw.replace(/\/\/[^@/]*@/, '//***@'))}.`,
    );
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new Error(`Expected a redis:// or rediss:// URL, got ${u.protocol}//`);
  if (!u.hostname) throw new Error('The Redis URL has no host: redis://host:port/db');
  const db = u.pathname.replace(/^\//, '') || '0';
  if (!/^\d{1,2}$/.test(db))
    throw new Error(`The Redis database must be a number (redis://host:port/0), got ${JSON.stringify(db)}.`);
  const match = u.searchParams.get('match') ?? '*';
  if (match.length > 256) throw new Error('The match pattern is longer than 256 characters.');
  const unknown = [...u.searchParams.keys()].filter((k) => k !== 'match');
  if (unknown.length)
    throw new Error(`Unknown Redis source parameter ${JSON.stringify(unknown[0])}: only ?match=PATTERN is understood.`);
  const host = `${u.hostname}${u.port ? `:${u.port}` : ''}`;
  const password = u.password || env.REDISCLI_AUTH || '';
  const auth =
    u.username || password
      ? `${encodeURIComponent(decodeURIComponent(u.username))}:${encodeURIComponent(decodeURIComponent(password))}@`
      : '';
  return {
    url: `${u.protocol}//${auth}${host}/${db}`,
    display: `${u.protocol}//${host}/${db}${match === '*' ? '' : `?match=${match}`}`,
    match,
  };
}
