// The lock formats one tool writes to more than one store, declared once here and listed by each store that reads
// them (every other format is declared by its own store's folder, formats.ts beside its definition): Lockboard's own
// record, Terraform's LockInfo, ShedLock's, Liquibase's and Laravel's rows or keys, and the lock objects that any
// object store (Cloud Storage, S3) holds alike (lib/lock/objects/formats). docs/formats.md says what each one is.
import { declareFormats as declare, type FormatDeclaration } from './stores/types';

/** Written by one tool to several stores (each store's view says which it is in its own terms). */
export const TOOL_FORMATS = declare([
  { id: 'lockboard', label: 'Lockboard lock', words: 'Lockboard’s own lock record: owner, purpose, TTL, refresh.' },
  {
    id: 'terraform',
    label: 'Terraform state lock',
    words: 'Terraform’s LockInfo (ID, Who, Operation, Path) as its backend keeps it.',
  },
  { id: 'shedlock', label: 'ShedLock', words: 'A ShedLock row: a scheduled task’s name, holder and lock_until.' },
  {
    id: 'liquibase',
    label: 'Liquibase changelog lock',
    words: 'Liquibase’s DATABASECHANGELOGLOCK row, held while migrations run.',
  },
  { id: 'laravel', label: 'Laravel cache lock', words: 'Laravel’s Cache::lock: an owner token with an expiry.' },
]);

/** The lock objects an object store holds whatever the store (lib/lock/objects/formats reads them). */
export const OBJECT_FORMATS = declare([
  { id: 'pulumi', label: 'Pulumi stack lock', words: 'Pulumi’s .pulumi/locks object of a stack.' },
  { id: 'vault', label: 'Vault HA lock', words: 'Vault’s HA lock object of its GCS backend.' },
  {
    id: 'ruby',
    label: 'Ruby distributed-lock',
    words: 'An object created only if absent by the Ruby distributed-lock gem.',
  },
  { id: 'gcslock', label: 'Python gcslock', words: 'An empty object created only if absent by Python’s gcslock.' },
  { id: 'gmutex', label: 'Go gmutex', words: 'An object created only if absent by Go’s gmutex.' },
  { id: 'go-gcslock', label: 'Go go-gcslock', words: 'go-gcslock’s object with a free-at time its holder sets.' },
  { id: 'certmagic', label: 'Caddy certmagic-gcs lock', words: 'Caddy’s certificate lock, with a temporary hold.' },
  { id: 'hudi', label: 'Apache Hudi table lock', words: 'Apache Hudi’s table lock object with its owner and expiry.' },
  { id: 'restic', label: 'restic repository lock', words: 'A restic lock file: host, PID, user, time.' },
  { id: 'plain', label: 'Plain lock object', words: 'An object named like a lock that no known tool wrote.' },
]);

type ToolFormatId = (typeof TOOL_FORMATS)[number]['id'];

/** The tool formats a store reads besides its own, by id (the same declarations, never copies). */
export const toolFormats = (...ids: ToolFormatId[]): FormatDeclaration[] =>
  TOOL_FORMATS.filter((f) => (ids as string[]).includes(f.id));
