// `lockboard discover --from-terraform DIR`: the lock sources Terraform configurations name, with no listing at all.
// Every *.tf under DIR (to a bounded depth) is read for `backend` blocks; a directory's `*.tfbackend` files (what
// `terraform init -backend-config=FILE` reads) are merged into its blocks, one configuration each. The stores say
// which backends keep their locks with them (their discovery's `terraform`), so a backend no store reads is named.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parseSource, STORES } from '../../lock/stores';
import { backendBlocks, backendConfig, type Attributes } from './hcl';
import type { Candidate } from './tally';
import type { TargetReport } from './walk';

const MAX_DEPTH = 8;
const MAX_FILES = 20_000;
const SKIP = new Set(['.terraform', '.git', 'node_modules']);

interface Dir {
  path: string;
  tf: string[];
  tfbackend: string[];
}

/** Directories holding .tf or .tfbackend files, breadth first, at most MAX_DEPTH deep and MAX_FILES files read. */
async function terraformDirs(root: string, problems: string[]): Promise<Dir[]> {
  const dirs: Dir[] = [];
  let queue = [root];
  let files = 0;
  for (let depth = 0; depth <= MAX_DEPTH && queue.length; depth++) {
    const next: string[] = [];
    for (const path of queue) {
      const entries = await readdir(path, { withFileTypes: true }).catch((err: Error) => {
        problems.push(`${relative(root, path) || '.'}: ${err.message}`);
        return [];
      });
      const dir: Dir = { path, tf: [], tfbackend: [] };
      for (const e of entries) {
        if (e.isDirectory() && !SKIP.has(e.name)) next.push(join(path, e.name));
        else if (e.isFile() && e.name.endsWith('.tf') && files++ < MAX_FILES) dir.tf.push(e.name);
        else if (e.isFile() && e.name.endsWith('.tfbackend') && files++ < MAX_FILES) dir.tfbackend.push(e.name);
      }
      if (dir.tf.length) dirs.push(dir);
    }
    queue = next;
  }
  if (queue.length) problems.push(`directories deeper than ${MAX_DEPTH} levels were not read`);
  if (files > MAX_FILES) problems.push(`only the first ${MAX_FILES} Terraform files were read`);
  return dirs;
}

/** The lock sources of one backend configuration, as the stores read it. */
function sourcesOf(type: string, attributes: Attributes): { sources: string[]; problems: string[] } {
  const answers = STORES.map((s) => s.discover?.terraform?.(type, attributes)).filter((a) => a !== undefined);
  if (answers.length === 0)
    return { sources: [], problems: [`backend "${type}": no store of Lockboard's reads its locks`] };
  return { sources: answers.flatMap((a) => a.sources), problems: answers.flatMap((a) => a.problems) };
}

export async function fromTerraform(root: string, env: Record<string, string | undefined>): Promise<TargetReport> {
  const startedAt = Date.now();
  const report: TargetReport = {
    target: `terraform:${root}`,
    store: 'Terraform',
    ...{ roots: 0, listed: 0, requests: 0, sampled: 0, elapsedMs: 0, candidates: [], problems: [] },
  };
  const bySource = new Map<string, Candidate & { evidence: string[] }>();
  for (const dir of await terraformDirs(root, report.problems)) {
    const configs = await backendConfigs(root, dir, report.problems);
    for (const file of dir.tf) {
      const where = relative(root, join(dir.path, file));
      for (const block of await readHcl(where, join(dir.path, file), backendBlocks, report.problems, [])) {
        report.roots++;
        const merged = configs.length ? configs : [['', {}] as const];
        for (const [config, extra] of merged) {
          const label = `backend "${block.type}" in ${where}${config ? ` with -backend-config=${config}` : ''}`;
          const { sources, problems } = sourcesOf(block.type, { ...block.attributes, ...extra });
          report.problems.push(...problems.map((p) => `${where}: ${p}`));
          for (const url of sources) addSource(bySource, url, label, env, report.problems);
        }
      }
    }
  }
  report.candidates = [...bySource.values()];
  report.elapsedMs = Date.now() - startedAt;
  return report;
}

/** A file read with `read`, or `fallback` and its problem said (unreadable, or not HCL: with the line). */
async function readHcl<T>(
  where: string,
  path: string,
  read: (file: string, text: string) => Promise<T>,
  problems: string[],
  fallback: T,
): Promise<T> {
  try {
    return await read(where, await readFile(path, 'utf8'));
  } catch (err) {
    problems.push(`${where}: ${(err as Error).message}`);
    return fallback;
  }
}

/** The directory's -backend-config files that could be read, each with its settings. */
async function backendConfigs(root: string, dir: Dir, problems: string[]) {
  const configs: (readonly [string, Attributes])[] = [];
  for (const f of dir.tfbackend) {
    const attributes = await readHcl(
      relative(root, join(dir.path, f)),
      join(dir.path, f),
      backendConfig,
      problems,
      null,
    );
    if (attributes) configs.push([f, attributes] as const);
  }
  return configs;
}

function addSource(
  bySource: Map<string, Candidate & { evidence: string[] }>,
  url: string,
  label: string,
  env: Record<string, string | undefined>,
  problems: string[],
): void {
  let source: string;
  try {
    source = parseSource(url, env).id;
  } catch (err) {
    problems.push(`${label}: ${(err as Error).message}`);
    return;
  }
  const c = bySource.get(source) ?? { source, locks: 0, formats: {}, sampled: 0, capped: false, evidence: [] };
  c.evidence.push(label);
  bySource.set(source, c);
}
