// lockboard discover: where the locks live. Each target (a store without a path) is looked at through its store's
// discovery capability and listed as `ls` lists it, within bounds; --from-terraform reads backend blocks instead.
import { stat } from 'node:fs/promises';
import { STORES } from '../../lock/stores';
import { EXIT, EXIT_CODES_HELP, parseFlags, UsageError } from '../common';
import { DEFAULT_LIMITS, type Limits } from './budget';
import { printJson, printSources, printText } from './print';
import { progressLine } from './progress';
import { fromTerraform } from './terraform';
import { discoverTarget, discoveryOf, type TargetReport } from './walk';

const OPTIONS = {
  sample: { type: 'string' },
  'max-requests': { type: 'string' },
  'max-seconds': { type: 'string' },
  'from-terraform': { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
  'emit-sources': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const targetForms = () =>
  STORES.flatMap((s) => (s.discover ? [`  ${s.discover.target.padEnd(26)} ${s.label}`] : [])).join('\n');

const DISCOVER_HELP = () => `Usage: lockboard discover TARGET… [--from-terraform DIR] [--sample N] [--max-requests N]
                         [--max-seconds S] [--json | --emit-sources]

Finds where locks live: each TARGET is a store without a path, whose containers (buckets, databases, tables, a
whole keyspace) are listed exactly as "lockboard ls" lists a source, so it finds the formats ls would list. It only
reads: nothing is written, claimed or locked. A TARGET is one of:
${targetForms()}

Options:
  --from-terraform DIR  read every Terraform backend block under DIR (and its *.tfbackend files) for the exact lock
                        sources: no request to any store
  --sample N            read at most N keys, objects or rows per target (default ${DEFAULT_LIMITS.sample}), shared
                        between its containers; checked before each page of the store
  --max-requests N      send at most N listing requests per target (default ${DEFAULT_LIMITS.maxRequests}): container
                        listings, estimates, one per listing page; a store that reads an object's body to
                        recognise it reads at most the sample's bodies besides
  --max-seconds S       stop looking at a target after S seconds (default ${DEFAULT_LIMITS.maxSeconds})
  --json                print { targets: [{ target, store, roots, listed, requests, sampled, elapsedMs, cappedBy?,
                        unreachable?, candidates: [{ source, locks, formats, sampled, estimate?, capped,
                        evidence? }], problems }] }
  --emit-sources        print only the sources found, one a line, as ls and LOCKBOARD_SOURCES take them
  -h, --help            show help

Progress goes to stderr while it is a terminal. Everything not looked at is said (a denied bucket, a bound
reached, an unreachable server); the exit code is 3 when anything was not, 0 when everything was.

Examples:
  lockboard discover gs:// s3:// --sample 1000
  lockboard discover 'redis://cache-1:6379' postgres://ops@db:5432/ --json
  lockboard discover kubernetes:// file:///var/lock
  lockboard discover --from-terraform ./infra --emit-sources
  lockboard ls $(lockboard discover 'redis://cache-1:6379' --emit-sources | head -1)

${EXIT_CODES_HELP}`;

function bound(flag: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${flag} must be a whole number of at least ${min}, got ${JSON.stringify(value)}.`);
  return n;
}

function limitsOf(values: { sample?: string; 'max-requests'?: string; 'max-seconds'?: string }): Limits {
  return {
    sample: bound('sample', values.sample, DEFAULT_LIMITS.sample, 1),
    maxRequests: bound('max-requests', values['max-requests'], DEFAULT_LIMITS.maxRequests, 1),
    maxSeconds: bound('max-seconds', values['max-seconds'], DEFAULT_LIMITS.maxSeconds, 1),
  };
}

async function checkDirs(dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    const found = await stat(dir).catch(() => null);
    if (!found?.isDirectory())
      throw new UsageError(`--from-terraform ${dir}: no such directory; give the folder holding the *.tf files.`);
  }
}

/** `--sample -5` read as the flag's value (to be refused by its bound), not as an unknown flag `-5`. */
function joinNegative(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const numeric = ['--sample', '--max-requests', '--max-seconds'].includes(argv[i]!);
    if (numeric && /^-\d/.test(argv[i + 1] ?? '')) out.push(`${argv[i]}=${argv[++i]}`);
    else out.push(argv[i]!);
  }
  return out;
}

export async function discoverCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('discover', joinNegative(argv), OPTIONS);
  if (values.help) {
    console.log(DISCOVER_HELP());
    return EXIT.ok;
  }
  const dirs = values['from-terraform'] ?? [];
  if (!positionals.length && !dirs.length)
    throw new UsageError('Name a TARGET (e.g. gs:// or redis://HOST:PORT) or --from-terraform DIR; see --help.');
  if (values.json && values['emit-sources']) throw new UsageError('Give --json or --emit-sources, not both.');
  const limits = limitsOf(values);
  for (const target of positionals) {
    const problem = discoveryOf(target);
    if (typeof problem === 'string')
      throw new UsageError(`${problem}; targets: ${STORES.flatMap((s) => s.discover?.target ?? []).join(', ')}.`);
  }
  await checkDirs(dirs);
  const env = { ...process.env };
  const reports: TargetReport[] = [];
  for (const dir of dirs) reports.push(await fromTerraform(dir, env));
  const progress = progressLine(process.stderr);
  for (const target of positionals) reports.push(await discoverTarget(target, limits, env, progress.tell));
  progress.done();
  if (values.json) printJson(reports);
  else if (values['emit-sources']) printSources(reports);
  else printText(reports);
  const partial = reports.some((r) => r.unreachable || r.problems.length);
  return partial ? EXIT.storage : EXIT.ok;
}
