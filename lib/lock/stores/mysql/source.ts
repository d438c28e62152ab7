// MySQL and MariaDB sources: `mysql://user[:password]@host[:port]/database` (`mariadb://` alike). TLS as mysql2 takes
// it: `?ssl=true` (verified against the system CAs), `?ssl={"rejectUnauthorized":false}` (mysql2's own JSON), or
// files by path (`?ssl-ca=/etc/ssl/db-ca.pem&ssl-cert=…&ssl-key=…`). The password may come from MYSQL_PWD, as for the
// mysql client. It is a secret: the display form never carries it.
import { readFileSync } from 'node:fs';

export interface MysqlSource {
  /** As shown everywhere: `mysql://host:port/db`, never with credentials. */
  display: string;
  host: string;
  port: number;
  user: string;
  database: string;
  /** From the URL; MYSQL_PWD fills it at connect time when absent. */
  password?: string;
  ssl?: Record<string, unknown>;
}

const TLS_FILES: Record<string, string> = { 'ssl-ca': 'ca', 'ssl-cert': 'cert', 'ssl-key': 'key' };

function sslOf(params: URLSearchParams): Record<string, unknown> | undefined {
  let ssl: Record<string, unknown> | undefined;
  const raw = params.get('ssl');
  if (raw === 'true' || raw === 'required' || raw === '1') ssl = {};
  else if (raw !== null && raw !== 'false' && raw !== '0') {
    try {
      ssl = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      throw new Error('?ssl= takes true, false or mysql2 SSL options as JSON, e.g. ?ssl={"rejectUnauthorized":true}');
    }
    if (!ssl || typeof ssl !== 'object' || Array.isArray(ssl)) throw new Error('?ssl= JSON must be an object.');
  }
  for (const [param, field] of Object.entries(TLS_FILES)) {
    const path = params.get(param);
    if (path) ssl = { ...ssl, [field]: path };
  }
  return ssl;
}

export function parseMysqlSource(raw: string): MysqlSource {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error('Expected mysql://user@host:port/database.');
  }
  if (u.protocol !== 'mysql:' && u.protocol !== 'mariadb:')
    throw new Error(`Expected a mysql:// or mariadb:// URL, got ${u.protocol}//`);
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!u.hostname || !database || database.includes('/'))
    throw new Error('The MySQL URL needs a host and a database: mysql://user@host:3306/app');
  const unknown = [...u.searchParams.keys()].filter((k) => k !== 'ssl' && !(k in TLS_FILES));
  if (unknown.length)
    throw new Error(`Unknown MySQL source parameter ${JSON.stringify(unknown[0])}: ssl, ssl-ca, ssl-cert, ssl-key.`);
  const ssl = sslOf(u.searchParams);
  const port = u.port ? Number(u.port) : 3306;
  return {
    display: `${u.protocol}//${u.hostname}:${port}/${database}`,
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port,
    user: decodeURIComponent(u.username) || 'root',
    database,
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(ssl ? { ssl } : {}),
  };
}

/** mysql2's `ssl` option: certificate files read now (a missing file is named), the rest as given. */
export function tlsOptions(ssl: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!ssl) return undefined;
  const out: Record<string, unknown> = { ...ssl };
  for (const field of Object.values(TLS_FILES)) {
    const path = ssl[field];
    if (typeof path === 'string' && !path.includes('-----BEGIN')) out[field] = readFileSync(path);
  }
  return out;
}
