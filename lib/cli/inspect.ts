// lockboard ls / status: the console's view of locks in a terminal.
import { parseDurationMs } from '../text/format';
import { COMMON_HELP, COMMON_OPTIONS, EXIT, EXIT_CODES_HELP, parseDuration, parseFlags, UsageError } from './common';
import { SOURCE_LINES } from './help-stores';
import { QUERY_HELP, QUERY_OPTIONS, queryOf, STREAM_AT } from './ls-query';
import { storeLs, storeStatus } from './stores';
import { resolveTarget } from './target';

const INSPECT_OPTIONS = { ...COMMON_OPTIONS, 'long-held': { type: 'string' } } as const;
const LS_OPTIONS = { ...INSPECT_OPTIONS, ...QUERY_OPTIONS } as const;
const STATUS_OPTIONS = { ...INSPECT_OPTIONS, settle: { type: 'boolean' } } as const;

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

const LS_HELP = `Usage: lockboard ls [prefix | SOURCE] [--json] [--long-held D] [--filter T] [--health H] [--sort K] [--limit N]

SOURCE is one of:
${SOURCE_LINES('  ')}

Lists the locks under a prefix (default: --prefix / LOCKBOARD_PREFIX / "locks/") with owner, health, how long
they have been held, when they expire (on the store's clock) and their version (what release takes).

${COMMON_HELP}
  --json            print { serverTime, source, bucket, prefix, locks: [...], skipped }; past ${STREAM_AT} locks,
                    one JSON lock per line as they are read, then a last line { serverTime, source, skipped,
                    locks: N, complete: true } (constant memory); with a query, the window with matched, total
                    and counts by health (rows without details: lockboard status shows one in full)
${QUERY_HELP}
${LONG_HELD_HELP}

Examples:
  lockboard ls --bucket my-locks
  lockboard ls s3://tf-state/envs/ --json       # Terraform's S3 lockfiles and Lockboard's S3 locks
  lockboard ls 'redis://cache-1:6379/0?match=lock*'   # every common Redis lock format; caches skipped
  lockboard ls postgres://lockboard@db:5432/app        # advisory locks with their sessions, lock tables
  lockboard ls ci/ --json | jq '.locks[] | select(.health == "expired") | .name'
  lockboard ls 'redis://cache-1:6379/0' --health expired --sort held --limit 20   # over every lock, not a slice`;

const STATUS_HELP = `Usage: lockboard status <lock | gs://bucket/object | s3://bucket/key | SOURCE lock> [--json] [--long-held D] [--settle]

SOURCE is one of:
${SOURCE_LINES('  ')}

Shows one lock in detail, in its store's own terms. Exit code 0 when the lock is held (not expired), 10 when it
is free, 13 when what is there is not a lock.

${COMMON_HELP}
  --json            print the lock as JSON (null when absent)
  --settle          where one read cannot judge the holder (a renewal, an expiry moving), read again one interval
                    later; without it such a holder is "unknown: seen once", never healthy
${LONG_HELD_HELP}

Examples:
  lockboard status deploy-prod --bucket my-locks
  lockboard status gs://tf-state/prod/default.tflock
  lockboard status s3://tf-state/envs/prod/terraform.tfstate.tflock
  lockboard status redis://cache-1:6379/0 locks:nightly
  lockboard status postgres://lockboard@db:5432/app advisory:72707369
  if lockboard status deploy-prod >/dev/null; then echo busy; fi

${EXIT_CODES_HELP}`;

export async function lsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('ls', argv, LS_OPTIONS);
  if (values.help) {
    console.log(LS_HELP);
    return EXIT.ok;
  }
  if (positionals.length > 1) throw new UsageError(`Expected at most one prefix, got ${positionals.length} arguments.`);
  const target = resolveTarget(values, positionals, { wantName: false });
  return storeLs(target, values.json, longHeldMs(values), queryOf(values));
}

export async function statusCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('status', argv, STATUS_OPTIONS);
  if (values.help) {
    console.log(STATUS_HELP);
    return EXIT.ok;
  }
  if (positionals.length > 2) throw new UsageError(`Expected a lock, got ${positionals.length} arguments.`);
  const target = resolveTarget(values, positionals, { wantName: true });
  return storeStatus(target, values.json, longHeldMs(values), values.settle === true);
}
