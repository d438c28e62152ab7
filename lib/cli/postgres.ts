// lockboard postgres init SOURCE: creates Lockboard's own tables (lockboard_locks, lockboard_released, the
// lockboard_fence sequence) if absent. Lockboard never alters a table it did not create.
import { initCommand } from './init';

const POSTGRES_HELP = `Usage: lockboard postgres init postgres://user@host:5432/db [--schema public]

Creates Lockboard's tables for its PostgreSQL lock, if they do not exist: lockboard_locks (one row per held lock,
naming the holder's backend), lockboard_released (each release, with the problem and details when the work failed)
and the lockboard_fence sequence (fencing tokens). Acquiring a lock also creates them on first use.

Options:
  --schema NAME   where to create them (default public)
  -h, --help      show help`;

export const postgresCommand = initCommand('postgres', POSTGRES_HELP, { schema: true });
