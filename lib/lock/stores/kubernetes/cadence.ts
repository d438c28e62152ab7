// When a Lease's holder has stopped renewing (docs/verdict.md "The reach of evidence"): what a missing or finished Pod
// needs before it says gone. A holder identity is a hostname (client-go's `<hostname>_<uuid>`), and many live leaders
// have no Pod of that name in the Lease's namespace: a leader outside the cluster, a Pod with `spec.hostname`, a name
// cut at 63 characters, a hostNetwork Pod, a leader electing from another namespace. So a missing Pod proves its holder
// gone only once the Lease has also stopped moving: seen unchanged (this store's clock, from the first read of its
// current resourceVersion) for longer than the bound, the shorter of
//   - five of the renewal intervals seen plus 2 s, once two renewTimes of this holder were seen: the interval is the
//     longest step between the renewTimes seen (the writer's clock alone, so no skew between clocks). A live client-go
//     leader whose renewals fail retries every retry period until its renew deadline, five retry periods by default
//     (client-go's and controller-runtime's 10 s of 2 s), and only then stops leading; the 2 s cover the reads' own
//     latency. A leader configured with a longer renew deadline than that is the rule's blind spot;
//   - its leaseDurationSeconds (no renewal seen: one read, and `--settle` reads again after it).
// A Lease with neither never stops by this rule, and a missing Pod stays unknown. A Lease within its bound is never
// stopped, and a renewal seen within it is what the renewal sign calls alive: the two never disagree.
import { seconds as secs } from '../../verdict/sign';

/** What the reads of one Lease saw of its renewals. */
export interface Renewals {
  durationMs?: number;
  /** How long the Lease has been seen unchanged (this store's clock). */
  unchangedMs: number;
  /** When its renewTime was last seen to move (this store's clock), if ever. */
  renewedAt?: number;
  /** The longest step between two renewTimes of this holder seen (the writer's clock), once two were seen. */
  cadenceMs?: number;
  reads: number;
}

/** How many renewal intervals a renewer may miss, and the reads' latency, before its renewals count as stopped. */
const MISSED_RENEWALS = 5;
const READ_SLACK_MS = 2_000;

export interface Quiet {
  /** The Lease has been seen unchanged past its bound: its holder has stopped renewing. */
  stopped: boolean;
  /** How long unchanged stops it, and in words; undefined when nothing read gives a bound. */
  boundMs?: number;
  bound?: string;
  /** Until a read past the bound (unset once stopped, or without a bound). */
  settleMs?: number;
}

/** The bound and whether the Lease has been unchanged past it (file header). */
export function quietOf(r: Renewals): Quiet {
  const byCadence = r.cadenceMs !== undefined ? MISSED_RENEWALS * r.cadenceMs + READ_SLACK_MS : undefined;
  const d = r.durationMs;
  const useCadence = byCadence !== undefined && (d === undefined || byCadence < d);
  const boundMs = useCadence ? byCadence : d;
  if (boundMs === undefined) return { stopped: false };
  const bound = useCadence
    ? `${secs(boundMs)} (${MISSED_RENEWALS} of the ${secs(r.cadenceMs!)} renewals seen, and ${secs(READ_SLACK_MS)})`
    : `its ${secs(boundMs)} lease`;
  if (r.unchangedMs > boundMs) return { stopped: true, boundMs, bound };
  return { stopped: false, boundMs, bound, settleMs: Math.ceil((boundMs - r.unchangedMs + 1000) / 1000) * 1000 };
}

/** Tenths of a second: "8.4 s" (whole seconds could read "8 s, past 8 s"). */
const tenths = (ms: number): string => `${(Math.max(0, ms) / 1000).toFixed(1)} s`;

/** How the Lease's quiet reads in a sentence: stopped ("unchanged for 9 s, past …"), or what read would settle it. */
export function quietWords(r: Renewals, q: Quiet): string {
  if (q.stopped) return `its Lease has not changed for ${tenths(r.unchangedMs)}, past ${q.bound}`;
  if (q.bound === undefined)
    return 'its Lease records no duration and no renewals were seen, so nothing read settles it';
  return `its Lease seen unchanged for longer than ${q.bound} settles it (a read after ${secs(q.settleMs ?? 0)})`;
}
