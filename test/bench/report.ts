// Benchmark output: a printed table and a JSON file under bench-results/.
import { mkdirSync, writeFileSync } from 'node:fs';

export function printTable(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n${title}`);
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]!);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(keys));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(keys.map((k) => String(r[k]))));
}

export function writeJson(name: string, data: unknown): void {
  mkdirSync('bench-results', { recursive: true });
  writeFileSync(`bench-results/${name}.json`, JSON.stringify(data, null, 2));
  console.log(`wrote bench-results/${name}.json`);
}

export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export const round = (n: number, digits = 1) => Number(n.toFixed(digits));

/** Every page of a store's listing: how many locks and skipped objects in all. */
export async function countEveryPage(store: {
  list(token?: string): Promise<{ locks: unknown[]; skipped: number; nextPageToken?: string }>;
}): Promise<{ locks: number; skipped: number }> {
  let locks = 0;
  let skipped = 0;
  let token: string | undefined;
  do {
    const page = await store.list(token);
    locks += page.locks.length;
    skipped += page.skipped;
    token = page.nextPageToken;
  } while (token);
  return { locks, skipped };
}
