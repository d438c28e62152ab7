// One target of `lockboard discover`, store-neutral: its store's discovery capability names the roots under it
// (buckets, databases, tables, a whole keyspace), and each root is listed page by page through the store, as
// `lockboard ls` lists it, until the target's bounds are reached. Nothing is written: listings only.
import { canEstimate, type LockStore } from '../../lock/store';
import { definitionOf, openSource, parseSource, type StoreDefinition } from '../../lock/stores';
import { TargetError, type Discovery } from '../../lock/stores/discovery';
import { redactUrl } from '../../lock/support/redact-url';
import { Budget, type CappedBy, type Limits } from './budget';
import { RootTally, type Candidate } from './tally';

export interface TargetReport {
  target: string;
  store: string;
  /** Roots found, and how many of them were listed. */
  roots: number;
  listed: number;
  requests: number;
  sampled: number;
  elapsedMs: number;
  cappedBy?: CappedBy;
  candidates: Candidate[];
  /** What could not be looked at, in the store's words: never left out silently. */
  problems: string[];
  /** The target itself could not be reached (nothing under it was looked at). */
  unreachable?: string;
}

export type Progress = (t: {
  target: string;
  roots: number;
  listed: number;
  sampled: number;
  requests: number;
}) => void;

type Env = Record<string, string | undefined>;

const words = (err: unknown) => redactUrl((err as Error).message ?? String(err)).replace(/\s+/g, ' ');

/** The definition of a target and its discovery, or the problem and its fix (a usage error). */
export function discoveryOf(target: string): { definition: StoreDefinition; discovery: Discovery } | string {
  const definition = definitionOf(target);
  if (!definition) return `${JSON.stringify(redactUrl(target))} is not a store a target can name`;
  const discovery = definition.discover;
  if (!discovery) return `${definition.label} sources cannot be discovered yet: name them (${definition.form})`;
  return { definition, discovery };
}

export async function discoverTarget(target: string, limits: Limits, env: Env, progress: Progress) {
  const found = discoveryOf(target);
  if (typeof found === 'string') throw new Error(found);
  const { definition, discovery } = found;
  const budget = new Budget(limits);
  const report: TargetReport = {
    target: redactUrl(target),
    store: definition.label,
    ...{ roots: 0, listed: 0, requests: 0, sampled: 0, elapsedMs: 0, candidates: [], problems: [] },
  };
  const seen = new Set<string>();
  const tell = () =>
    progress({ target: report.target, roots: report.roots, listed: report.listed, ...budgetFigures(budget) });
  try {
    const roots = await budget.within(
      discovery.roots(target, { env, spend: () => budget.spend(), limit: limits.sample }),
    );
    report.roots = roots.roots.length;
    report.problems.push(...roots.problems);
    if (roots.capped) {
      report.problems.push(`more ${definition.label} containers exist than were listed (a bound: see --help)`);
      report.cappedBy ??= budget.cappedBy ?? 'sample';
    }
    for (const [i, root] of roots.roots.entries()) {
      if (budget.spent()) {
        report.problems.push(`${sourceId(root, env)}: not listed (${budget.cappedBy} bound reached)`);
        continue;
      }
      // each root its share of what is left of the sample, so one big bucket does not hide the others
      const share = Math.ceil(budget.sampleLeft / (roots.roots.length - i));
      await listRoot(root, { discovery, budget, env, report, share, seen, tell });
      report.listed++;
      tell();
    }
  } catch (err) {
    if (err instanceof TargetError) throw err; // the target's form, not its store: a usage error
    report.unreachable = words(err);
  }
  report.candidates.sort((a, b) => b.locks - a.locks || a.source.localeCompare(b.source));
  return Object.assign(report, budgetFigures(budget), { elapsedMs: budget.elapsedMs }, capped(budget));
}

const budgetFigures = (b: Budget) => ({ requests: b.requests, sampled: b.sampled });
const capped = (b: Budget) => (b.cappedBy ? { cappedBy: b.cappedBy } : {}); // the bound that stopped the walk

/** A root stopped by a bound before any lock showed: said, never read as "no locks here". */
const notSeen = (read: number, estimate?: number) =>
  `no lock among the first ${read}${estimate === undefined ? '' : ` of ~${estimate}`} read; the rest not read (a bound)`;

function sourceId(url: string, env: Env): string {
  try {
    return parseSource(url, env).id;
  } catch {
    return redactUrl(url);
  }
}

interface RootContext {
  discovery: Discovery;
  budget: Budget;
  env: Env;
  report: TargetReport;
  /** Keys, objects or rows this root may read. */
  share: number;
  /** Locks counted under earlier roots (tally.ts). */
  seen: Set<string>;
  /** Progress, after each page. */
  tell(): void;
}

/** One root listed through its store, page by page within the budget; its failure is the root's problem alone. */
async function listRoot(root: string, c: RootContext): Promise<void> {
  const spec = parseSource(root, c.env);
  let store: LockStore | undefined;
  try {
    const opening = openSource(spec, { env: c.env, role: 'cli' });
    // a store opened after the time ran out is closed when it opens: nothing is left connected
    store = await c.budget.within(opening).catch((err: unknown) => {
      void opening.then((s) => s.close()).catch(() => undefined);
      throw err;
    });
    const tally = new RootTally(spec.prefix, c.seen);
    const estimate = canEstimate(store) && c.budget.spend() ? await c.budget.within(store.estimateTotal()) : undefined;
    let token: string | undefined;
    let more = true;
    while (more && tally.sampled < c.share && c.budget.spend()) {
      const pageSize = Math.max(1, Math.min(1000, c.share - tally.sampled));
      const page = await c.budget.within(store.list(token, { pageSize }));
      c.budget.take(page.locks.length + page.skipped);
      tally.add(page.locks, page.skipped);
      c.tell();
      token = page.nextPageToken;
      more = token !== undefined;
    }
    // a root stopped at its share of the sample: the target was capped by it, the other roots are still looked at
    if (more && tally.sampled >= c.share) c.report.cappedBy ??= 'sample';
    const sourceOf = (group: string) => sourceId((group && c.discovery.narrow?.(root, group)) || root, c.env);
    const found = tally.candidates(sourceOf, { estimate, capped: more });
    c.report.candidates.push(...found);
    if (more && !found.length) c.report.problems.push(`${spec.id}: ${notSeen(tally.sampled, estimate)}`);
  } catch (err) {
    c.report.problems.push(`${spec.id}: ${words(err)}`);
  } finally {
    await store?.close().catch(() => undefined);
  }
}
