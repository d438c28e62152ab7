// The formats PostgreSQL sources hold: session advisory locks (pg_locks) and lock rows of the tools' tables.
import { toolFormats } from '../../shared-formats';
import { declareFormats, type FormatDeclaration } from '../types';

export const POSTGRES_OWN_FORMATS = declareFormats([
  {
    id: 'advisory',
    label: 'Advisory lock',
    words: 'pg_advisory_lock held by a backend’s session (pg_locks), ended with it.',
  },
  {
    id: 'unique-index',
    label: 'Unique-index lock row',
    words: 'A row whose unique key is the lock, inserted by its holder.',
  },
  {
    id: 'db-scheduler',
    label: 'db-scheduler execution',
    words: 'db-scheduler’s picked execution row with its heartbeat.',
  },
]);
export const postgresFormats: readonly FormatDeclaration[] = [
  ...POSTGRES_OWN_FORMATS,
  ...toolFormats('lockboard', 'shedlock', 'liquibase', 'laravel'),
];
