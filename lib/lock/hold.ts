// Placing and ending a hold on any store that can hold (its definition's `hold`): the request checked against the
// format's limits (nothing written when it does not fit), the store's create-only write, and the trail's
// `hold-placed` / `hold-ended` records. Ending is the store's own pinned force-release of exactly the hold read.
import { LockOptionsError } from './errors';
import type { HoldFormat, HoldPlan, StoreHolds } from './hold-types';
import { holdOf, type HoldFacts } from './hold-marker';
import type { LockStore, LockView, StoreReleaseResult } from './store';
import { definitionByKind, openSource, type OpenOptions, type SourceSpec } from './stores';
import { formatDuration } from '../text/format';

export const REASON_MAX = 500;

/** A hold refused: the name is held (or is no hold of Lockboard's, for an end); nothing was written or deleted. */
export class HoldRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HoldRefusedError';
  }
}

interface HoldRequest {
  name: string;
  operator: string;
  reason: string;
  forMs: number;
  /** A format id of the store's; default: the first that fits the name. */
  format?: string;
  /** The acknowledgements given (`ack-leader-election`): a format that needs one is refused without it. */
  acks?: readonly string[];
}

/** The store's holds, or a usage error saying the store has none. */
async function storeHolds(spec: SourceSpec): Promise<StoreHolds> {
  const definition = definitionByKind(spec.kind);
  if (!definition.hold) throw new LockOptionsError(`${definition.label} sources cannot be held by Lockboard yet.`);
  return definition.hold();
}

/** The format a hold is written in, every limit checked first (a LockOptionsError naming the limit: exit 2). */
function holdFormat(holds: StoreHolds, r: HoldRequest): HoldFormat {
  const ids = holds.formats.map((f) => f.id).join(', ');
  const format =
    r.format === undefined ? holds.formats.find((f) => f.fits(r.name)) : holds.formats.find((f) => f.id === r.format);
  if (!format)
    throw new LockOptionsError(
      r.format === undefined
        ? `No hold format of this store fits "${r.name}"; pass --format (one of ${ids}).`
        : `--format ${r.format} is not one this store can hold in; use one of ${ids}.`,
    );
  if (format.session)
    throw new LockOptionsError(
      `${format.label} cannot be held without a live session: ${format.session}. A hold needs a process Lockboard keeps (--session), which this version does not offer; nothing was written.`,
    );
  const reasonMax = Math.min(REASON_MAX, format.reasonMax ?? REASON_MAX);
  if (!r.reason.trim()) throw new LockOptionsError('--reason is required: say why the lock is held.');
  if ([...r.reason].length > reasonMax)
    throw new LockOptionsError(
      `--reason is ${[...r.reason].length} characters; ${format.label} holds take at most ${reasonMax}.`,
    );
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(r.reason + r.operator))
    throw new LockOptionsError('--reason and --operator may not hold control characters (newlines, tabs, escapes).');
  if (format.ack && !r.acks?.includes(format.ack.flag))
    throw new LockOptionsError(`${format.label}: ${format.ack.words}.`);
  if (!(r.forMs >= 1000)) throw new LockOptionsError(`--for must be at least 1s, got ${r.forMs} ms.`);
  if (r.forMs > format.maxMs)
    throw new LockOptionsError(
      `--for ${formatDuration(r.forMs)} is longer than ${format.label} can hold: at most ${formatDuration(format.maxMs)} (${format.maxWords}).`,
    );
  return format;
}

const holderOf = (v: LockView) =>
  `${v.identity ?? 'an unnamed holder'} (${v.formatLabel}, ${v.health}, version ${v.version})`;

/** Places a hold: checked, written create-only, recorded. Resolves to the hold as the store now shows it. */
export async function placeHold(
  spec: SourceSpec,
  o: OpenOptions,
  r: HoldRequest,
): Promise<{ plan: HoldPlan; view: LockView | null; auditError?: string }> {
  const holds = await storeHolds(spec);
  const format = holdFormat(holds, r);
  const store = await openSource(spec, o);
  try {
    const refuse = (v: LockView) => new HoldRefusedError(`${r.name} is held by ${holderOf(v)}: nothing was written.`);
    const before = await store.inspect(r.name);
    // a released marker (ShedLock's row past lock_until), an expired lock, or what is no lock (the state blob an Azure
    // lease goes on) is the store's own precondition's to judge
    const held = before && before.releasable && before.health !== 'free' && before.health !== 'expired';
    if (held) throw refuse(before);
    const sinceMs = store.now();
    const plan: HoldPlan = { ...r, format, sinceMs, untilMs: sinceMs + r.forMs };
    if (!(await holds.place(spec, o, plan))) {
      const now = await store.inspect(r.name);
      throw now ? refuse(now) : new HoldRefusedError(`${r.name} was taken and let go meanwhile: nothing was written.`);
    }
    const auditError = await recordHold(store, 'hold-placed', r.name, {
      operator: r.operator,
      reason: r.reason,
      until: new Date(plan.untilMs).toISOString(),
    });
    return { plan, view: await store.inspect(r.name), ...(auditError ? { auditError } : {}) };
  } finally {
    await store.close();
  }
}

/** One hold record in the store's trail (best effort: the hold itself stands); resolves to why it failed, if it did. */
async function recordHold(
  store: LockStore,
  event: 'hold-placed' | 'hold-ended' | 'hold-expired',
  lock: string,
  f: { operator: string; reason?: string; until: string },
): Promise<string | undefined> {
  const fields = { event, lock, operator: f.operator, until: f.until, ...(f.reason ? { reason: f.reason } : {}) };
  return store.record(fields).then(
    () => undefined,
    (err: unknown) => (err as Error).message,
  );
}

interface EndRequest {
  name: string;
  operator: string;
  /** The version the hold was seen at; absent: the hold as read now. */
  version?: string;
}

/** Ends a hold with the store's pinned release of exactly the hold read; anything else there is refused. */
export async function endHold(
  spec: SourceSpec,
  o: OpenOptions,
  r: EndRequest,
): Promise<{ result: StoreReleaseResult | null; hold?: HoldFacts; version?: string }> {
  const store = await openSource(spec, o);
  try {
    const view = await store.inspect(r.name);
    if (!view) return { result: null };
    const hold = holdOf(view);
    if (!hold)
      throw new HoldRefusedError(`${r.name} is no hold: it is held by ${holderOf(view)}. Nothing was deleted.`);
    if (r.version !== undefined && r.version !== view.version)
      throw new HoldRefusedError(
        `${r.name} is not at version ${r.version}: the hold was replaced (now ${holderOf(view)}). Nothing was deleted.`,
      );
    const result = await store.forceRelease({
      name: r.name,
      version: view.version,
      reason: `end of the hold: ${hold.reason ?? 'no reason given'}`,
      operator: r.operator,
      ...(view.identity !== undefined ? { identity: view.identity } : {}),
    });
    if (result.outcome === 'released')
      await recordHold(store, 'hold-ended', r.name, { operator: r.operator, reason: hold.reason, until: hold.until });
    return { result, hold, version: view.version };
  } finally {
    await store.close();
  }
}
