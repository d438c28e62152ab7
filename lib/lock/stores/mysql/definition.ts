// MySQL and MariaDB in the registry: `mysql://user[:password]@host:port/db` (`mariadb://`; the password also from
// MYSQL_PWD; TLS as mysql2 takes it), mysql2 loaded when a source is opened: a pool of two for the console and one for
// the CLI (never a lock holder's session), and a connection of its own for Lockboard's named lock (held while it lives).
import { holdOn, type StoreDefinition } from '../types';
import { parseMysqlSource } from './source';
import { MYSQL_VERSION } from './version';
import { mysqlDiscovery } from './discover';
import { mysqlFormats } from './lock-formats';

const usage = (message: string) => Object.assign(new Error(message), { code: 'USAGE' });

export const mysql: StoreDefinition = {
  kind: 'mysql',
  formats: mysqlFormats,
  label: 'MySQL/MariaDB',
  versionShape: MYSQL_VERSION,
  watchIntervalMs: 1_000,
  schemes: ['mysql', 'mariadb'],
  form: 'mysql://USER@HOST:PORT/DB',
  discover: mysqlDiscovery,
  hold: async () => (await import('./hold')).mysqlHolds,
  credentials: 'the password in the URL or MYSQL_PWD; TLS as ?ssl=true or ?ssl-ca=FILE',
  parse(url) {
    const p = parseMysqlSource(url);
    return { kind: 'mysql', id: p.display, bucket: p.display, bucketId: p.display, prefix: '', url };
  },
  async open(spec, o) {
    const source = parseMysqlSource(spec.url);
    const [{ MysqlLockStore }, { openPool }] = await Promise.all([import('./store'), import('./client')]);
    const { db, close } = await openPool(source, o.env, o.role === 'console' ? 2 : 1);
    return new MysqlLockStore({ db, source: spec.id, database: source.database, longHeldMs: o.longHeldMs, close });
  },
  async init(spec, o) {
    const { initText, createTables } = await import('./init');
    if (!spec) return initText();
    if (o.schema) throw usage('--schema does not apply to MySQL: the tables go in the source’s database.');
    return createTables(parseMysqlSource(spec.url), spec.id, o.env);
  },
  async acquire(spec, name, o) {
    const [{ acquireMysqlLock }, { openSession }] = await Promise.all([import('./acquire'), import('./client')]);
    const { db, close } = await openSession(parseMysqlSource(spec.url), o.env);
    return holdOn({
      name: `${spec.id} ${name}`,
      close,
      acquire: () => acquireMysqlLock({ db, name, timeoutMs: o.timeoutMs, signal: o.signal, onWait: o.onWait }),
      release: (lock, d) =>
        lock.release(d.outcome === 'error' ? { failed: true, error: new Error(d.error ?? 'failed') } : undefined),
    });
  },
};
