// lockboard ls / status: the console's view of locks in a terminal.
import { getLock, listLocks, type LockInfo } from '../lock';
import {
  COMMON_HELP,
  COMMON_OPTIONS,
  EXIT,
  EXIT_CODES_HELP,
  formatDuration,
  lockObjectName,
  parseFlags,
  resolveConfig,
  UsageError,
} from './common';

export const LS_HELP = `Usage: lockboard ls [prefix] [--json]

Lists the locks under a prefix (default: --prefix / LOCKBOARD_PREFIX / "locks/") with owner, health, how long
they have been held, when they expire (on the server's clock) and their generation.

${COMMON_HELP}
  --json            print { serverTime, prefix, locks: [...] }

Examples:
  lockboard ls --bucket my-locks
  lockboard ls ci/ --json | jq '.locks[] | select(.health == "expired") | .name'`;

export const STATUS_HELP = `Usage: lockboard status <lock> [--json]

Shows one lock in detail. Exit code 0 when the lock is held (not expired), 10 when it is free.

${COMMON_HELP}
  --json            print the lock as JSON (null when absent)

Examples:
  lockboard status deploy-prod --bucket my-locks
  if lockboard status deploy-prod >/dev/null; then echo busy; fi

${EXIT_CODES_HELP}`;

export async function lsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('ls', argv, COMMON_OPTIONS);
  if (values.help) {
    console.log(LS_HELP);
    return EXIT.ok;
  }
  if (positionals.length > 1) throw new UsageError(`Expected at most one prefix, got ${positionals.length} arguments.`);
  const config = resolveConfig(values);
  const prefix = positionals[0] ?? config.prefix;
  const locks: LockInfo[] = [];
  let pageToken: string | undefined;
  let serverTime = '';
  do {
    const page = await listLocks({ storage: config.storage, bucket: config.bucket, prefix, pageToken });
    locks.push(...page.locks);
    pageToken = page.nextPageToken;
    serverTime = page.serverTime;
  } while (pageToken);
  if (values.json) {
    console.log(JSON.stringify({ serverTime, prefix, locks }, null, 2));
    return EXIT.ok;
  }
  if (locks.length === 0) {
    console.log(`No locks under gs://${config.bucket}/${prefix}`);
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
  ]);
  printTable(['NAME', 'HEALTH', 'OWNER', 'HELD FOR', 'EXPIRES IN', 'GENERATION'], rows);
  return EXIT.ok;
}

export async function statusCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('status', argv, COMMON_OPTIONS);
  if (values.help) {
    console.log(STATUS_HELP);
    return EXIT.ok;
  }
  const config = resolveConfig(values);
  const name = lockObjectName(config.prefix, positionals[0]);
  const lock = await getLock({ storage: config.storage, bucket: config.bucket, name });
  const held = lock !== null && lock.health !== 'expired';
  if (values.json) {
    console.log(JSON.stringify(lock, null, 2));
    return held ? EXIT.ok : EXIT.free;
  }
  if (!lock) {
    console.log(`${name}: free (no lock object in gs://${config.bucket})`);
    return EXIT.free;
  }
  const fields: [string, string | undefined][] = [
    ['lock', lock.name],
    ['state', held ? `held (${lock.health})` : 'free (expired: the next acquirer takes it over)'],
    ['identity', lock.identity],
    ['host / pid', lock.host ? `${lock.host} / ${lock.pid ?? '?'}` : undefined],
    ['purpose', lock.purpose],
    ['format', lock.format],
    ['held for', formatDuration(lock.heldMs)],
    ['last refresh', lock.updatedAt],
    ['expires at', lock.expiresAt ?? 'never (foreign format: only an operator can clear it)'],
    [
      'ttl / refresh',
      lock.ttlMs ? `${formatDuration(lock.ttlMs)} / ${formatDuration(lock.refreshIntervalMs ?? 0)}` : undefined,
    ],
    ['generation', `${lock.generation} (fencing token)`],
    ['metageneration', lock.metageneration],
  ];
  for (const [k, v] of fields) if (v !== undefined) console.log(`${k.padEnd(15)} ${v}`);
  return held ? EXIT.ok : EXIT.free;
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
