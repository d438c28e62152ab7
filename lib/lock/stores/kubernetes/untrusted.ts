// A Lease is written by whoever may update Leases: every field is type-checked where it is read (a field of the
// wrong type is dropped and named in the lock's note) and what is passed on is bounded by the 64 KiB rule every store
// follows (MAX_BODY_BYTES): a holderIdentity or annotation above it is not read, and the annotations a lock shows
// total at most that. The apiserver checks the spec's types itself, but allows 256 KiB of annotations and a
// holderIdentity of any length, and a LeaseApi other than the apiserver (a proxy, a fake) checks nothing.
import { MAX_BODY_BYTES } from '../../objects/formats/types';
import type { Lease } from './lease';

interface LeaseSpecReading {
  holder: string;
  durationSeconds?: number;
  acquiredMs?: number;
  renewMs?: number;
  transitions?: number;
  /** The raw times, for details (only when they are text or a Date). */
  acquireText?: string;
  renewText?: string;
  /** Fields dropped for their type or size: `leaseDurationSeconds (a string)`. */
  dropped: string[];
}

function kindOf(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/** The spec's fields, each checked; an absent or null field is absent, a wrong one dropped and named. */
export function readSpec(l: Lease): LeaseSpecReading {
  const raw: unknown = l.spec;
  const s = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const dropped: string[] = raw !== undefined && s !== raw ? [`spec (${kindOf(raw)})`] : [];
  const present = (k: string) => s[k] !== undefined && s[k] !== null;
  const out: LeaseSpecReading = { holder: '', dropped };

  const holder = s.holderIdentity;
  if (typeof holder === 'string') {
    if (bytes(holder) <= MAX_BODY_BYTES) out.holder = holder;
    else {
      out.holder = `(a holderIdentity of ${bytes(holder)} bytes: not read)`;
      dropped.push('holderIdentity (larger than 64 KiB)');
    }
  } else if (present('holderIdentity')) {
    out.holder = '(unreadable holderIdentity)';
    dropped.push(`holderIdentity (${kindOf(holder)})`);
  }
  const whole = (k: 'leaseDurationSeconds' | 'leaseTransitions', min: number): number | undefined => {
    const v = s[k];
    if (!present(k)) return undefined;
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= min) return v;
    dropped.push(`${k} (${typeof v === 'number' ? `${v}, not a whole number from ${min}` : kindOf(v)})`);
    return undefined;
  };
  const duration = whole('leaseDurationSeconds', 1);
  if (duration !== undefined) out.durationSeconds = duration;
  const transitions = whole('leaseTransitions', 0);
  if (transitions !== undefined) out.transitions = transitions;
  for (const [k, ms, text] of [
    ['acquireTime', 'acquiredMs', 'acquireText'],
    ['renewTime', 'renewMs', 'renewText'],
  ] as const) {
    const v = s[k];
    if (!present(k)) continue;
    const at = v instanceof Date ? v.getTime() : typeof v === 'string' && v.length <= 64 ? Date.parse(v) : NaN;
    if (Number.isFinite(at)) {
      out[ms] = at;
      out[text] = v instanceof Date ? v.toISOString() : String(v);
    } else dropped.push(`${k} (${typeof v === 'string' ? 'not a time' : kindOf(v)})`);
  }
  return out;
}

/** One annotation's value when it is text within the 64 KiB rule (undefined otherwise). */
export function annotationText(l: Lease, key: string): string | undefined {
  const v: unknown = annotationsOf(l)[key];
  return typeof v === 'string' && bytes(v) <= MAX_BODY_BYTES ? v : undefined;
}

function annotationsOf(l: Lease): Record<string, unknown> {
  const a: unknown = l.metadata.annotations;
  return typeof a === 'object' && a !== null && !Array.isArray(a) ? (a as Record<string, unknown>) : {};
}

/**
 * The annotations a lock shows: text values, in key order, while their total stays within 64 KiB; the rest are left
 * out and named (`app.example/blob (200000 bytes)`).
 */
export function boundedAnnotations(l: Lease): { shown: Record<string, string>; left: string[] } {
  const shown: Record<string, string> = {};
  const left: string[] = [];
  let total = 0;
  for (const [key, v] of Object.entries(annotationsOf(l)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (typeof v !== 'string') {
      left.push(`${key} (${kindOf(v)})`);
      continue;
    }
    const size = bytes(key) + bytes(v);
    if (total + size > MAX_BODY_BYTES) {
      left.push(`${key} (${bytes(v)} bytes)`);
      continue;
    }
    total += size;
    shown[key] = v;
  }
  return { shown, left };
}

/** What the lock's note says about the annotations left out, or undefined. */
export function annotationsNote(left: string[]): string | undefined {
  if (left.length === 0) return undefined;
  const named = left.slice(0, 5).join(', ') + (left.length > 5 ? ` and ${left.length - 5} more` : '');
  return `Annotations not shown (over the 64 KiB a lock shows, or not text): ${named}.`;
}
