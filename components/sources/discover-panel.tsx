'use client';

import { useState } from 'react';
import type { ConnectionsReport } from '@/lib/cli/discover/connections';

interface Progress {
  target: string;
  roots: number;
  listed: number;
  sampled: number;
  requests: number;
}
type Line = { progress?: Progress; report?: ConnectionsReport; error?: string };
type State = { running: boolean; progress?: Progress; report?: ConnectionsReport; error?: string };

/** The NDJSON lines of a streamed answer, as they arrive. */
async function* linesOf(res: Response): AsyncGenerator<Line> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    const parts = (rest + r.value).split('\n');
    rest = parts.pop()!;
    for (const part of parts) if (part.trim()) yield JSON.parse(part) as Line;
  }
}

async function discover(set: (update: (s: State) => State) => void): Promise<void> {
  set(() => ({ running: true }));
  try {
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };
    const res = await fetch('/api/sources/discover', init);
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
      set(() => ({ running: false, error: body?.error?.message ?? `The server answered ${res.status}.` }));
      return;
    }
    for await (const line of linesOf(res)) {
      if (line.progress) set((s) => ({ ...s, progress: line.progress }));
      if (line.report || line.error) set(() => ({ running: false, report: line.report, error: line.error }));
    }
    set((s) => (s.running ? { running: false, error: 'The answer ended before its report.' } : s));
  } catch (err) {
    set(() => ({ running: false, error: `Discovery could not be reached: ${(err as Error).message}` }));
  }
}

/** Discovery over the configured connections: run on request, its progress, then what is found but not watched. */
export function DiscoverPanel() {
  const [state, setState] = useState<State>({ running: false });
  const p = state.progress;
  return (
    <section className="space-y-4">
      <button
        type="button"
        disabled={state.running}
        onClick={() => void discover(setState)}
        className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm text-white disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900"
      >
        {state.running ? 'Discovering…' : 'Discover'}
      </button>
      {state.running && (
        <p role="status" data-testid="discover-progress" className="text-sm">
          {p ? `${p.target}: ${p.listed}/${p.roots} listed, ${p.sampled} read, ${p.requests} requests` : 'Starting…'}
        </p>
      )}
      {state.error && <p role="alert">{state.error}</p>}
      {state.report && <DiscoverReport report={state.report} />}
    </section>
  );
}

function DiscoverReport({ report }: { report: ConnectionsReport }) {
  const all = report.unwatched.map((u) => u.source).join(',');
  return (
    <div className="space-y-4" data-testid="discover-report">
      <h2 className="text-lg font-semibold">Found but not watched</h2>
      {report.targets.length === 0 ? (
        <p>None of the configured sources is on a store Lockboard can discover.</p>
      ) : report.unwatched.length === 0 ? (
        <p data-testid="discover-empty">
          Nothing found outside the configured sources ({report.watched} found, all already watched). Only what the
          bounds let it read was looked at: see each store below.
        </p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr>
              <th>Source</th>
              <th>Evidence</th>
              <th>Add to LOCKBOARD_SOURCES</th>
            </tr>
          </thead>
          <tbody>
            {report.unwatched.map((u) => (
              <tr key={u.source} data-testid="unwatched">
                <td className="font-mono">{u.source}</td>
                <td>{u.evidence}</td>
                <td>
                  <code>,{u.source}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {report.unwatched.length > 1 && (
        <p className="text-sm">
          All of them: <code data-testid="add-all">,{all}</code> (after the sources you have, credentials as in yours)
        </p>
      )}
      <h2 className="text-lg font-semibold">Looked at</h2>
      <ul className="space-y-1 text-sm">
        {report.targets.map((t) => (
          <li key={t.target}>
            {t.unreachable ? `${t.target}: not looked at: ${t.unreachable}` : t.summary}
            {t.problems.map((problem) => (
              <div key={problem} className="pl-4 text-amber-700 dark:text-amber-400">
                not looked at: {problem}
              </div>
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}
