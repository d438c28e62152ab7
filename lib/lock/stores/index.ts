// The registry: the one file that names every store. A new store is one folder with a definition listed here.
// Definitions load their SDK only when a source of theirs is opened, so a GCS-only install loads no other SDK. Every
// definition listed opens its stores judged (lib/lock/verdict/judged-store.ts): a source opened through the registry,
// or by a definition taken from STORES, hands out views with their verdicts.
import { splitAddress } from '../address';
import { redactUrl } from '../support/redact-url';
import type { LockStore } from '../store';
import { judgedStore } from '../verdict/judged-store';
import { azure } from './azure/definition';
import { dynamodb } from './dynamodb/definition';
import { files } from './files/definition';
import { etcd } from './etcd/definition';
import { gcs } from './gcs/definition';
import { kubernetes } from './kubernetes/definition';
import { mysql } from './mysql/definition';
import { postgres } from './postgres/definition';
import { redis } from './redis/definition';
import { s3 } from './s3/definition';
import { zookeeper } from './zookeeper/definition';
import type { AZURE_OWN_FORMATS } from './azure/lock-formats';
import type { DYNAMODB_OWN_FORMATS } from './dynamodb/lock-formats';
import type { ETCD_OWN_FORMATS } from './etcd/lock-formats';
import type { FILES_OWN_FORMATS } from './files/lock-formats';
import type { KUBERNETES_OWN_FORMATS } from './kubernetes/lock-formats';
import type { MYSQL_OWN_FORMATS } from './mysql/lock-formats';
import type { POSTGRES_OWN_FORMATS } from './postgres/lock-formats';
import type { REDIS_OWN_FORMATS } from './redis/lock-formats';
import type { ZOOKEEPER_OWN_FORMATS } from './zookeeper/lock-formats';
import type { OBJECT_FORMATS, TOOL_FORMATS } from '../shared-formats';
import type { FormatDeclaration, HeldLock, OpenOptions, RunOptions, SourceSpec, StoreDefinition } from './types';

export type { HeldLock, OpenOptions, RunOptions, SourceSpec, StoreDefinition, StoreErrorJudgement } from './types';

/** The definition, opening its stores judged. */
const judgedOpen = (d: StoreDefinition): StoreDefinition => ({
  ...d,
  open: (spec, o) => d.open(spec, o).then(judgedStore),
});

export const STORES: readonly StoreDefinition[] = [
  gcs,
  s3,
  azure,
  redis,
  postgres,
  mysql,
  dynamodb,
  kubernetes,
  files,
  zookeeper,
  etcd,
].map(judgedOpen);

/** Every format id a store declares (its folder's lock-formats.ts), and the tool formats stores share. */
export type DeclaredFormatId = (
  | typeof AZURE_OWN_FORMATS
  | typeof DYNAMODB_OWN_FORMATS
  | typeof ETCD_OWN_FORMATS
  | typeof FILES_OWN_FORMATS
  | typeof KUBERNETES_OWN_FORMATS
  | typeof MYSQL_OWN_FORMATS
  | typeof POSTGRES_OWN_FORMATS
  | typeof REDIS_OWN_FORMATS
  | typeof ZOOKEEPER_OWN_FORMATS
  | typeof TOOL_FORMATS
  | typeof OBJECT_FORMATS
)[number]['id'];

/** Every format any store reads, each declaration once (a tool format several stores read is one declaration). */
export const FORMAT_DECLARATIONS: readonly FormatDeclaration[] = [...new Set(STORES.flatMap((s) => s.formats))];

/**
 * The format ids a `?format=` filter means: the id itself, and every format that had it as its id before ids were
 * unique across stores (`advisory` still finds MySQL's named locks, now `mysql-named-lock`, beside PostgreSQL's).
 */
export function formatsMeant(id: string): string[] {
  return [id, ...FORMAT_DECLARATIONS.filter((f) => f.formerly === id).map((f) => f.id)];
}

/** Every source form, for help texts and messages. */
export const SOURCE_FORMS = STORES.map((s) => s.form).join(', ');

/** A source URL no store reads, or one its store refuses: the message names the problem and the fix. */
export class SourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceError';
  }
}

export function definitionOf(url: string): StoreDefinition | undefined {
  const scheme = /^([a-z0-9+.-]+):\/\//i.exec(url)?.[1]?.toLowerCase();
  return STORES.find((s) => scheme !== undefined && s.schemes.includes(scheme));
}

export function definitionByKind(kind: string): StoreDefinition {
  const found = STORES.find((s) => s.kind === kind);
  if (!found) throw new SourceError(`No store "${kind}"; stores: ${STORES.map((s) => s.kind).join(', ')}.`);
  return found;
}

export function isSourceUrl(url: string | undefined): boolean {
  return url !== undefined && definitionOf(url) !== undefined;
}

/**
 * An argument that looks like a source URL but is none (`dynamodb:/tf-locks`, `redis:/x`, `gcs://b`): the message naming
 * the form expected, so it is refused instead of being read as a lock name; null for anything else.
 */
export function sourceLikeProblem(arg: string | undefined): string | null {
  // a store's scheme with the colon left out (`zk//host:2181/`)
  const colonless = arg === undefined ? null : /^([a-z][a-z0-9+.-]*)\/\//i.exec(arg);
  const meant = colonless && STORES.find((s) => s.schemes.includes(colonless[1]!.toLowerCase()));
  if (meant) return `${JSON.stringify(arg)} is not a ${meant.label} source: expected ${meant.form} (note the "://").`;
  const m = arg === undefined ? null : /^([a-z][a-z0-9+.-]*):(\/*)/i.exec(arg);
  if (!m || definitionOf(arg!)) return null;
  const scheme = m[1]!.toLowerCase();
  const def = STORES.find((s) => s.schemes.includes(scheme));
  if (def) return `${JSON.stringify(arg)} is not a ${def.label} source: expected ${def.form} (note the "://").`;
  if (m[2])
    return `${JSON.stringify(arg)} is not a source URL: "${scheme}://" is no store's; use one of ${SOURCE_FORMS}.`;
  return null;
}

export function parseSource(url: string, env: Record<string, string | undefined> = {}): SourceSpec {
  const def = definitionOf(url);
  // the URL is named without its password, even when it is no URL at all
  if (!def) throw new SourceError(`${JSON.stringify(redactUrl(url))} is not a source URL; use one of ${SOURCE_FORMS}.`);
  try {
    return def.parse(url, env);
  } catch (err) {
    throw new SourceError(`${def.label} source: ${redactUrl((err as Error).message)}`);
  }
}

/**
 * `url` is a source, or a whole lock's URL (`gs://bucket/locks/a`), or a lock's address as the console shows it
 * (`kubernetes://team-a/leader`, lib/lock/address.ts): the source and the name in it.
 */
export function splitLockUrl(url: string, name?: string): { source: string; name?: string } {
  if (name !== undefined) return { source: url, name };
  const definition = definitionOf(url);
  // a store that splits its own addresses (an object store: a prefix ends with "/") says when a URL names no lock
  if (definition?.splitLockUrl) return definition.splitLockUrl(url) ?? { source: url };
  return splitAddress(url, (source) => parseSource(source, {})) ?? { source: url };
}

export function openSource(spec: SourceSpec, o: OpenOptions): Promise<LockStore> {
  return definitionByKind(spec.kind).open(spec, o);
}

export function acquireOn(spec: SourceSpec, name: string, o: OpenOptions & RunOptions): Promise<HeldLock> {
  return definitionByKind(spec.kind).acquire(spec, name, o);
}
