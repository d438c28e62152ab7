// What `lockboard discover` prints: ranked candidates with their evidence and everything not looked at (text), a
// documented document (--json), or the sources alone, one a line, as `ls` and LOCKBOARD_SOURCES take them
// (--emit-sources).
import { escapeText } from '../../text/safe-text';
import { plural } from '../../text/plural';
import type { Candidate } from './tally';
import type { TargetReport } from './walk';

const count = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');

const CAPPED: Record<string, string> = {
  sample: 'the --sample bound',
  requests: 'the --max-requests bound',
  time: 'the --max-seconds bound',
};

/** "14 terraform, 2 lockboard · sampled 1 000 of ~8 200" (or the Terraform file that names it). */
export function evidenceOf(c: Candidate): string {
  if (c.evidence) return c.evidence.join('; ');
  const formats = Object.entries(c.formats)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([format, n]) => `${count(n)} ${format}`)
    .join(', ');
  const of = c.estimate !== undefined ? ` of ~${count(c.estimate)}` : '';
  return `${formats} · sampled ${count(c.sampled)}${of}${c.capped ? ' (capped: there may be more)' : ''}`;
}

export function targetLine(r: TargetReport): string {
  if (r.unreachable) return `${r.target}: not looked at: ${r.unreachable}`;
  const figures = r.requests
    ? `${plural('request', r.requests)}, ${count(r.sampled)} read, ${(r.elapsedMs / 1000).toFixed(1)} s`
    : `${(r.elapsedMs / 1000).toFixed(1)} s`;
  const capped = r.cappedBy ? `; stopped by ${CAPPED[r.cappedBy]}` : '';
  const found = r.candidates.length ? plural('source', r.candidates.length) : 'no locks found';
  return `${r.target} (${r.store}): ${found} · ${figures}${capped}`;
}

export function printText(reports: TargetReport[]): void {
  const out: string[] = [];
  for (const r of reports) {
    out.push(targetLine(r));
    const width = Math.max(0, ...r.candidates.map((c) => c.source.length));
    for (const c of r.candidates) out.push(`  ${c.source.padEnd(width)}  ${evidenceOf(c)}`);
    for (const p of r.problems) out.push(`  not looked at: ${p}`);
  }
  const sources = [...new Set(reports.flatMap((r) => r.candidates.map((c) => c.source)))];
  if (sources.length) out.push('', `LOCKBOARD_SOURCES=${sources.join(',')}`);
  console.log(escapeText(out.join('\n'), { keepNewlines: true }));
}

/** The --json document: { targets: [{ target, store, roots, listed, requests, sampled, elapsedMs, cappedBy?,
 * unreachable?, candidates: [{ source, locks, formats, sampled, estimate?, capped, evidence? }], problems }] }. */
export function printJson(reports: TargetReport[]): void {
  console.log(JSON.stringify({ targets: reports }, null, 2));
}

export function printSources(reports: TargetReport[]): void {
  const sources = [...new Set(reports.flatMap((r) => r.candidates.map((c) => c.source)))];
  if (sources.length) console.log(escapeText(sources.join('\n'), { keepNewlines: true }));
}
