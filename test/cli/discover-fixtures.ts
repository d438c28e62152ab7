// What the discover tests share: one target discovered in this process through the registry (as the CLI does), with
// no progress line, and the candidates by source.
import { DEFAULT_LIMITS, type Limits } from '@/lib/cli/discover/budget';
import { discoverTarget } from '@/lib/cli/discover/walk';
import { listAll } from '@/lib/lock/list-all';
import { openSource, parseSource } from '@/lib/lock/stores';

export async function discover(target: string, limits: Partial<Limits> = {}, env: Record<string, string> = {}) {
  const report = await discoverTarget(target, { ...DEFAULT_LIMITS, ...limits }, { ...process.env, ...env }, () => {});
  const bySource = Object.fromEntries(report.candidates.map((c) => [c.source, c]));
  return { report, bySource };
}

/** The formats `lockboard ls SOURCE` lists, counted: what discover must have found under that source. */
export async function lsFormats(source: string, env: Record<string, string> = {}): Promise<Record<string, number>> {
  const e = { ...process.env, ...env };
  const store = await openSource(parseSource(source, e), { env: e, role: 'cli' });
  try {
    const formats: Record<string, number> = {};
    for (const v of (await listAll(store)).locks) formats[v.format] = (formats[v.format] ?? 0) + 1;
    return formats;
  } finally {
    await store.close();
  }
}
