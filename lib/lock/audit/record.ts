// The audit trail's event shape, the same in every store's trail (GCS and S3 objects, a Redis stream, a PostgreSQL
// table): what is written, and what is read back for histories and churn.

/** Every event kind Lockboard writes; anything else in a trail is shown as `unknown`. */
export const KNOWN_AUDIT_EVENTS = [
  'acquired',
  'took-over',
  'released',
  'lost',
  'force-release-requested',
  'force-released',
  'force-release-refused',
  /** The store's mutation threw: `error` holds its words; the lock is in whatever state that left it. */
  'force-release-failed',
  'observed-created',
  'observed-deleted',
  'deleted-outside',
  /** A hold (lib/lock/hold.ts) placed, ended by an operator, or past its `until`: `operator`, `reason`, `until`. */
  'hold-placed',
  'hold-ended',
  'hold-expired',
] as const;

export type AuditEventKind = (typeof KNOWN_AUDIT_EVENTS)[number];

export interface AuditEvent {
  event: AuditEventKind;
  lock: string;
  identity?: string;
  generation?: string;
  previous_identity?: string;
  /** For `took-over`: the replaced generation, and how long after it became stale it was taken over. */
  previous_generation?: string;
  stale_ms?: string;
  held_ms?: string;
  outcome?: string;
  error?: string;
  operator?: string;
  reason?: string;
  /** For holds: when the hold ends (ISO, the store's clock). */
  until?: string;
  /**
   * "false" on a release whose DELETE response was lost and whose retry found the object gone: it was deleted, but
   * by this request or by another party's (the holder's own release, an operator) cannot be known. Only a
   * confirmed release (a 2xx DELETE) claims the generation, so the trail never shows two releases of one.
   */
  delete_confirmed?: 'false';
  /** Observed events (GCS notifications): the lock's format id. */
  format?: string;
  /**
   * The container (a SourceSpec's `bucket`) the lock is in, where one trail serves several (DynamoDB lock tables
   * sharing one audit table): which source an event belongs to.
   */
  container?: string;
}

/** An audit event as read back: its object name, its time, and the numeric fields as numbers. */
export interface AuditRecord extends Omit<AuditEvent, 'held_ms' | 'stale_ms' | 'event'> {
  /** A kind Lockboard writes, or `unknown` for one it does not (the kind written is in `reported_event`). */
  event: AuditEventKind | 'unknown';
  reported_event?: string;
  id: string;
  /** The store's time for the record (a stream id, an object's creation, a row's default), never a writer's name. */
  at: string;
  /**
   * Who gave `at`: the store (absent or 'store'); where the store keeps no time for a record (DynamoDB, etcd, the
   * lock-file trail), the signer ('signed': a verified record's signed time) or the writer ('reported': as reported).
   */
  at_from?: 'store' | 'signed' | 'reported';
  held_ms?: number;
  stale_ms?: number;
  /** Signed with the deployment's key by the console or the CLI; false: reported by a holder (or unsigned). */
  verified?: boolean;
  /**
   * Why a record is or is not verified: 'verified'; 'other-key' (signed, but this deployment's key does not check the
   * signature: a key since replaced, or another deployment's); 'copied' (a good signature from another time: a
   * record copied); 'none' (unsigned: what a holder reported).
   */
  signature?: 'verified' | 'other-key' | 'copied' | 'none';
  /** When the signer signed it, and its HMAC (lib/lock/audit/trust.ts). */
  signed_at?: string;
  sig?: string;
}

/** The string fields an audit record may carry, in every store's trail. */
export const AUDIT_STRING_FIELDS = [
  'identity',
  'generation',
  'previous_identity',
  'previous_generation',
  'outcome',
  'error',
  'operator',
  'reason',
  'format',
  'signed_at',
  'sig',
  'container',
  'until',
] as const;
