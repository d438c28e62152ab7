// lockboard postgres init SOURCE: creates Lockboard's own tables (lockboard_locks, lockboard_released, the
// lockboard_fence sequence) if absent. Lockboard never alters a table it did not create.
import { EXIT, parseFlags, UsageError } from './common';
import { parseSource } from '../lock/stores';

export const POSTGRES_HELP = `Usage: lockboard postgres init postgres://user@host:5432/db [--schema public]

Creates Lockboard's tables for its PostgreSQL lock, if they do not exist: lockboard_locks (one row per held lock,
naming the holder's backend), lockboard_released (each release, with the problem and details when the work failed)
and the lockboard_fence sequence (fencing tokens). Acquiring a lock also creates them on first use.

Options:
  --schema NAME   where to create them (default public)
  -h, --help      show help`;

export async function postgresCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('postgres', argv, {
    schema: { type: 'string', default: 'public' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(POSTGRES_HELP);
    return EXIT.ok;
  }
  const [sub, url] = positionals;
  if (sub !== 'init')
    throw new UsageError(`Unknown subcommand ${JSON.stringify(sub ?? '')}: use "lockboard postgres init SOURCE".`);
  if (!url) throw new UsageError('Missing the source: lockboard postgres init postgres://user@host:5432/db');
  if (!/^[a-z_][a-z0-9_]{0,62}$/i.test(values.schema))
    throw new UsageError(`--schema must be a plain identifier, got ${JSON.stringify(values.schema)}.`);
  let spec;
  try {
    spec = parseSource(url, process.env);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (spec.kind !== 'postgres') throw new UsageError(`Expected a postgres:// source, got ${spec.id}.`);
  let pg: typeof import('pg');
  try {
    pg = ((await import('pg')) as unknown as { default: typeof import('pg') }).default;
  } catch {
    throw new UsageError('postgres:// sources need the PostgreSQL client: npm install pg');
  }
  const display = spec.id;
  const client = new pg.Client({
    connectionString: spec.url,
    application_name: 'lockboard',
    connectionTimeoutMillis: 5_000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    throw Object.assign(new Error(`Cannot reach ${display}: ${(err as Error).message}`), { code: 'ECONNREFUSED' });
  }
  try {
    const { initLockTables } = await import('../lock/stores/postgres');
    await initLockTables(client, values.schema);
    console.log(`Lockboard's tables are ready in ${display} (schema ${values.schema}).`);
    return EXIT.ok;
  } finally {
    await client.end().catch(() => undefined);
  }
}
