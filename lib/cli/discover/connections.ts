// Discovery of the stores a set of configured sources is on (the console's sources page): each source names its
// target (its store's `targetOf`, or its server without a path), each target is discovered once exactly as
// `lockboard discover` does it (walk.ts, the same bounds), and what was found that no configured source watches is
// set apart with the entry to add to LOCKBOARD_SOURCES.
import { definitionOf, parseSource } from '../../lock/stores';
import { serverTarget } from '../../lock/stores/discovery';
import { redactUrl } from '../../lock/support/redact-url';
import type { Limits } from './budget';
import { evidenceOf, targetLine } from './print';
import { discoverTarget, type Progress, type TargetReport } from './walk';

type Env = Record<string, string | undefined>;

/** The targets that discover the stores of `urls`, each once (sources a store cannot discover are left out). */
export function targetsOf(urls: string[]): string[] {
  const targets = new Set<string>();
  for (const url of urls) {
    const discovery = definitionOf(url)?.discover;
    if (discovery) targets.add(discovery.targetOf?.(url) ?? serverTarget(url));
  }
  return [...targets];
}

/** Whether a configured source (its id) watches `id`: the same, or one with no options above it (`gs://b/` ⊃ `gs://b/envs/`). */
export function watches(configured: string, id: string): boolean {
  if (configured === id) return true;
  const definition = definitionOf(configured);
  if (definition?.discover?.covers)
    return definitionOf(id) === definition && definition.discover.covers(configured, id);
  if (configured.includes('?')) return false;
  const base = id.replace(/\?.*$/s, '');
  return base === configured || base.startsWith(configured.endsWith('/') ? configured : `${configured}/`);
}

interface Unwatched {
  source: string;
  /** "2 terraform, 1 lockboard · sampled 4 000 of ~8 200" */
  evidence: string;
  target: string;
}

export interface ConnectionsReport {
  /** One line per target: what was looked at, with its figures and the bound that stopped it. */
  targets: { target: string; summary: string; problems: string[]; unreachable?: string }[];
  /** Sources found that no configured source watches, ranked by the locks found. */
  unwatched: Unwatched[];
  /** Sources found that a configured source already watches. */
  watched: number;
}

/** Discovers the stores of the configured sources `urls`, one target after another, within `limits` each. */
export async function discoverConnections(
  urls: string[],
  limits: Limits,
  env: Env,
  progress: Progress,
): Promise<ConnectionsReport> {
  const configured = urls.map((url) => parseSource(url, env).id);
  const report: ConnectionsReport = { targets: [], unwatched: [], watched: 0 };
  for (const target of targetsOf(urls)) {
    let r: TargetReport;
    try {
      r = await discoverTarget(target, limits, env, progress);
    } catch (err) {
      const shown = redactUrl(target);
      report.targets.push({
        target: shown,
        summary: shown,
        problems: [],
        unreachable: redactUrl((err as Error).message),
      });
      continue;
    }
    report.targets.push({ target: r.target, summary: targetLine(r), problems: r.problems, unreachable: r.unreachable });
    for (const c of r.candidates) {
      if (configured.some((w) => watches(w, c.source))) report.watched++;
      else report.unwatched.push({ source: c.source, evidence: evidenceOf(c), target: r.target });
    }
  }
  return report;
}
