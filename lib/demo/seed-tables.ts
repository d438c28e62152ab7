// The PostgreSQL seed's unique-index lock tables, exactly as its published design has them (facts-redis-postgres.md):
// `released.id` has no default because the seed's `acquit` copies the lock row's own id. The demo and every test that
// holds a unique-index lock use these statements, so a release that inserts fewer columns fails here as it would there.
export const SEED_TABLES_DDL = [
  `CREATE TABLE IF NOT EXISTS locks (
     id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
     named TEXT UNIQUE NOT NULL,
     pid INTEGER NOT NULL,
     ins TIMESTAMPTZ NOT NULL DEFAULT now())`,
  `CREATE TABLE IF NOT EXISTS released (
     id UUID PRIMARY KEY,
     named TEXT NOT NULL,
     locked TIMESTAMPTZ,
     released TIMESTAMPTZ DEFAULT now(),
     problem TEXT,
     details TEXT)`,
];

/** The seed's own take: one row naming the holder's backend (pg_backend_pid() of the session that runs it). */
export const SEED_TAKE = `INSERT INTO locks (named, pid) VALUES ($1, pg_backend_pid())`;
