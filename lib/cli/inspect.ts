// lockboard ls / status: the console's view of locks in a terminal.
import { parseDurationMs } from '../format';
import { getLock, listLocks, type LockInfo } from '../lock';
import { gcsView } from '../lock/store';
import {
  COMMON_HELP,
  COMMON_OPTIONS,
  EXIT,
  EXIT_CODES_HELP,
  formatDuration,
  parseDuration,
  parseFlags,
  parseGsUrl,
  resolveConfig,
  resolveLock,
  UsageError,
} from './common';

const INSPECT_OPTIONS = { ...COMMON_OPTIONS, 'long-held': { type: 'string' } } as const;

const LONG_HELD_HELP = `  --long-held D     show live locks held longer than D (e.g. 2h) as long-held, like the console
                    (or LOCKBOARD_LONG_HELD; default: off)`;

/** The long-held threshold from the flag or the console's variable, so both judge a lock alike. */
function longHeldMs(values: { 'long-held'?: string }): number | undefined {
  if (values['long-held'] !== undefined) return parseDuration('long-held', values['long-held']);
  const fromEnv = process.env.LOCKBOARD_LONG_HELD;
  if (!fromEnv) return undefined;
  const ms = parseDurationMs(fromEnv);
  if (ms === null) {
    throw new UsageError(`LOCKBOARD_LONG_HELD must be a duration like 30m or 2h, got ${JSON.stringify(fromEnv)}.`);
  }
  return ms;
}

export const LS_HELP = `Usage: lockboard ls [prefix | gs://bucket/prefix | s3://bucket/prefix | redis://host:port/db?match=P] [--json] [--long-held D]

Lists the locks under a prefix (default: --prefix / LOCKBOARD_PREFIX / "locks/") with owner, health, how long
they have been held, when they expire (on the server's clock) and their generation.

${COMMON_HELP}
  --json            print { serverTime, bucket, prefix, locks: [...], skipped }
${LONG_HELD_HELP}

Examples:
  lockboard ls --bucket my-locks
  lockboard ls s3://tf-state/envs/ --json       # Terraform's S3 lockfiles and Lockboard's S3 locks
  lockboard ls 'redis://cache-1:6379/0?match=lock*'   # every common Redis lock format; caches skipped
  lockboard ls ci/ --json | jq '.locks[] | select(.health == "expired") | .name'`;

export const STATUS_HELP = `Usage: lockboard status <lock | gs://bucket/object | gs://bucket/prefix lock> [--json] [--long-held D]

Shows one lock in detail. Exit code 0 when the lock is held (not expired), 10 when it is free.

${COMMON_HELP}
  --json            print the lock as JSON (null when absent)
${LONG_HELD_HELP}

Examples:
  lockboard status deploy-prod --bucket my-locks
  lockboard status gs://tf-state/prod/default.tflock
  lockboard status s3://tf-state/envs/prod/terraform.tfstate.tflock
  lockboard status redis://cache-1:6379/0 locks:nightly
  if lockboard status deploy-prod >/dev/null; then echo busy; fi

${EXIT_CODES_HELP}`;

export async function lsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('ls', argv, INSPECT_OPTIONS);
  if (values.help) {
    console.log(LS_HELP);
    return EXIT.ok;
  }
  if (positionals.length > 1) throw new UsageError(`Expected at most one prefix, got ${positionals.length} arguments.`);
  if (/^(s3|redis|rediss|postgres|postgresql):\/\//.test(positionals[0] ?? '')) {
    const { storeLs } = await import('./stores');
    return storeLs(positionals[0]!, values.json, longHeldMs(values));
  }
  const source = parseGsUrl(positionals[0]);
  const config = resolveConfig(source ? { ...values, bucket: source.bucket } : values);
  const longHeld = longHeldMs(values);
  const prefix = source?.prefix ?? positionals[0] ?? config.prefix;
  const locks: LockInfo[] = [];
  let skipped = 0;
  let pageToken: string | undefined;
  let serverTime = '';
  do {
    const page = await listLocks({
      storage: config.storage,
      bucket: config.bucket,
      prefix,
      pageToken,
      longHeldMs: longHeld,
    });
    locks.push(...page.locks);
    skipped += page.skipped.length;
    pageToken = page.nextPageToken;
    serverTime = page.serverTime;
  } while (pageToken);
  if (values.json) {
    const id = `gs://${config.bucket}/${prefix}`;
    const views = locks.map((l) => gcsView(l, id));
    console.log(
      JSON.stringify({ serverTime, source: id, bucket: config.bucket, prefix, locks: views, skipped }, null, 2),
    );
    return EXIT.ok;
  }
  const skippedLine = `${skipped} other object${skipped === 1 ? '' : 's'} skipped (data or not a recognised lock).`;
  if (locks.length === 0) {
    console.log(`No locks under gs://${config.bucket}/${prefix}${skipped ? `; ${skippedLine}` : ''}`);
    return EXIT.ok;
  }
  const now = Date.parse(serverTime);
  const rows = locks.map((l) => [
    l.name,
    l.health,
    [l.identity ?? '-', l.purpose ? `(${l.purpose})` : ''].join(' ').trim(),
    formatDuration(l.heldMs),
    l.expiresAt ? expiresIn(Date.parse(l.expiresAt) - now) : 'never',
    l.generation,
    l.format,
  ]);
  printTable(['NAME', 'HEALTH', 'OWNER', 'HELD FOR', 'EXPIRES IN', 'GENERATION', 'FORMAT'], rows);
  if (skipped) console.log(skippedLine);
  return EXIT.ok;
}

export async function statusCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('status', argv, INSPECT_OPTIONS);
  if (values.help) {
    console.log(STATUS_HELP);
    return EXIT.ok;
  }
  if (positionals.length > 2) throw new UsageError(`Expected a lock, got ${positionals.length} arguments.`);
  if (/^(s3|redis|rediss|postgres|postgresql):\/\//.test(positionals[0] ?? '')) {
    const { storeStatus } = await import('./stores');
    return storeStatus(positionals[0]!, positionals[1], values.json);
  }
  const { name, ...config } = resolveLock(values, positionals);
  const longHeld = longHeldMs(values);
  const lock = await getLock({ storage: config.storage, bucket: config.bucket, name, longHeldMs: longHeld });
  const held = lock !== null && lock.releasable && lock.health !== 'expired' && lock.health !== 'free';
  const code = lock && !lock.releasable ? EXIT.notALock : held ? EXIT.ok : EXIT.free;
  if (values.json) {
    console.log(JSON.stringify(lock && gcsView(lock, `gs://${config.bucket}/${config.prefix}`), null, 2));
    return code;
  }
  if (!lock) {
    console.log(`${name}: free (no lock object in gs://${config.bucket})`);
    return EXIT.free;
  }
  const fields: [string, string | undefined][] = [
    ['lock', lock.name],
    ['state', stateOf(lock, held)],
    ['identity', lock.identity],
    ['host / pid', lock.host ? `${lock.host} / ${lock.pid ?? '?'}` : undefined],
    ['purpose', lock.purpose],
    ['format', `${lock.formatLabel} (${lock.format})`],
    ...lock.details.map(([k, v]): [string, string] => [k.toLowerCase(), v]),
    ...(lock.format === 'terraform'
      ? [['lock ID', `${lock.generation} (terraform force-unlock ${lock.generation})`] as [string, string]]
      : []),
    ['note', lock.note],
    ['held for', formatDuration(lock.heldMs)],
    ['last refresh', lock.updatedAt],
    ['expires at', lock.expiresAt ?? 'never (foreign format: only an operator can clear it)'],
    [
      'ttl / refresh',
      lock.ttlMs ? `${formatDuration(lock.ttlMs)} / ${formatDuration(lock.refreshIntervalMs ?? 0)}` : undefined,
    ],
    ['generation', `${lock.generation} (fencing token)`],
    ['metageneration', lock.metageneration],
    ['releasing', lock.releaseNote],
  ];
  const width = Math.max(...fields.map(([k]) => k.length)) + 1;
  for (const [k, v] of fields) if (v !== undefined) console.log(`${k.padEnd(width)} ${v}`);
  return code;
}

function stateOf(lock: LockInfo, held: boolean): string {
  if (!lock.releasable) return 'not a lock (never released by Lockboard)';
  if (lock.health === 'free') return 'free (a released marker kept by its library)';
  return held ? `held (${lock.health})` : 'free (expired: the next acquirer takes it over)';
}

function expiresIn(ms: number): string {
  return ms <= 0 ? `expired ${formatDuration(-ms)} ago` : formatDuration(ms);
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}
