// PostgreSQL sources: a libpq URL `postgres://user[:pass]@host:port/db` (PG* variables fill what it lacks). The
// password is a secret: the display form never carries it.
export function parsePostgresSource(raw: string): { url: string; display: string } {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error('Expected postgres://user@host:port/db.');
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:')
    throw new Error(`Expected a postgres:// URL, got ${u.protocol}//`);
  const db = u.pathname.replace(/^\//, '');
  if (!u.hostname || !db)
    throw new Error('The PostgreSQL URL needs a host and a database: postgres://user@host:5432/db');
  return { url: raw, display: `postgres://${u.hostname}${u.port ? `:${u.port}` : ''}/${db}` };
}
