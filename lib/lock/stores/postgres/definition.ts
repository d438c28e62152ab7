// PostgreSQL in the registry: a libpq URL postgres://user[:pass]@host:port/db (PG* variables fill what it lacks), pg
// loaded when a source is opened: a pool of two for the console (never a lock holder's session), one connection for
// the CLI, and a session of its own for Lockboard's lock (held while that session lives).
import { holdOn, missingSdk, type OpenOptions, type SourceSpec, type StoreDefinition } from '../types';
import { parsePostgresSource } from './source';
import { POSTGRES_VERSION } from './version';
import { postgresDiscovery } from './discover';
import { postgresFormats } from './lock-formats';

async function pgModule(): Promise<typeof import('pg')> {
  try {
    return ((await import('pg')) as unknown as { default: typeof import('pg') }).default;
  } catch {
    throw missingSdk('postgres:// sources', 'pg');
  }
}

/** A connected Client (CLI, lock holder) or a Pool (console), with how to close it. */
async function connect(spec: SourceSpec, o: Pick<OpenOptions, 'role'>, session = false) {
  const pg = await pgModule();
  const settings = { connectionString: spec.url, connectionTimeoutMillis: 5_000 };
  if (o.role === 'console' && !session) {
    const pool = new pg.Pool({ ...settings, max: 2, application_name: 'lockboard-console' });
    pool.on('error', () => {});
    return { client: pool, close: () => pool.end().catch(() => undefined) };
  }
  const client = new pg.Client({ ...settings, application_name: 'lockboard' });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    throw Object.assign(new Error(`Cannot reach ${spec.id}: ${(err as Error).message}`), { code: 'ECONNREFUSED' });
  }
  return { client, close: () => client.end().catch(() => undefined) };
}

export const postgres: StoreDefinition = {
  kind: 'postgres',
  formats: postgresFormats,
  label: 'PostgreSQL',
  versionShape: POSTGRES_VERSION,
  watchIntervalMs: 1_000,
  schemes: ['postgres', 'postgresql'],
  form: 'postgres://USER@HOST:PORT/DB',
  discover: postgresDiscovery(connect),
  hold: async () => (await import('./hold')).postgresHolds(connect),
  parse(url) {
    const p = parsePostgresSource(url);
    return { kind: 'postgres', id: p.display, bucket: p.display, bucketId: p.display, prefix: '', url: p.url };
  },
  async open(spec, o) {
    const [{ PostgresLockStore }, { speaking }, { client, close }] = await Promise.all([
      import('./store'),
      import('./unreachable'),
      connect(spec, o),
    ]);
    return new PostgresLockStore({
      client: speaking(client, spec.id),
      source: spec.id,
      longHeldMs: o.longHeldMs,
      close,
    });
  },
  async init(spec, o) {
    if (!spec)
      throw Object.assign(new Error('Name the database: lockboard postgres init postgres://user@host:5432/db'), {
        code: 'USAGE',
      });
    const schema = o.schema ?? 'public';
    if (!/^[a-z_][a-z0-9_]{0,62}$/i.test(schema))
      throw Object.assign(new Error(`--schema must be a plain identifier, got ${JSON.stringify(schema)}.`), {
        code: 'USAGE',
      });
    const [{ initLockTables }, { client, close }] = await Promise.all([import('./lock'), connect(spec, o, true)]);
    try {
      await initLockTables(client as import('pg').Client, schema);
      return `Lockboard's tables are ready in ${spec.id} (schema ${schema}).`;
    } finally {
      await close();
    }
  },
  async acquire(spec, name, o) {
    const [{ acquirePgLock }, { client, close }] = await Promise.all([import('./acquire'), connect(spec, o, true)]);
    return holdOn({
      name: `${spec.id} ${name}`,
      close,
      acquire: () =>
        acquirePgLock({
          client: client as import('pg').Client,
          name,
          identity: o.identity,
          purpose: o.purpose,
          timeoutMs: o.timeoutMs,
          signal: o.signal,
        }),
      // a failed command is recorded in lockboard_released with its exit code
      release: (lock, d) =>
        lock.release(d.outcome === 'error' ? { problem: 'ExitCode', details: d.error ?? '' } : undefined),
    });
  },
};
