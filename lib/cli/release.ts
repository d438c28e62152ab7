// lockboard release: the console's force-release from a terminal, with the same outcomes and an audit event.
import { userInfo } from 'node:os';
import { AuditWriteError } from '../lock';
import { escapeText } from '../text/safe-text';
import { COMMON_HELP, COMMON_OPTIONS, EXIT, EXIT_CODES_HELP, parseFlags, UsageError } from './common';
import { SOURCE_LINES, STORE_NAMES, VERSION_LINES } from './help-stores';
import { storeRelease } from './stores';
import { resolveTarget } from './target';

const RELEASE_HELP = `Usage: lockboard release <lock | gs://bucket/object | s3://bucket/key | SOURCE lock> --version V --reason TEXT [--operator NAME]

SOURCE is one of:
${SOURCE_LINES('  ')}

Force-releases exactly the version of a lock you saw (read it with "lockboard status"), with the store's own
condition on ${STORE_NAMES} ("lockboard status" prints each lock's rule).
It can never clear a successor's lock. The attempt is recorded in the store's audit trail before anything is
changed (nothing is changed when it cannot be).

Options:
  --version V         the version "lockboard status" / "ls --json" shows, exactly (quote it):
${VERSION_LINES('                        ')}
  --generation G      GCS only, the older form: the generation you saw (with --metageneration M: G.M)
  --reason TEXT       why (required; recorded in the audit trail)
  --operator NAME     who (default: the OS user)
  --accept-two-leaders
                      needed where the old holder is not told and keeps believing it holds or leads until its
                      session ends, so there are two holders or leaders until then ("lockboard status" prints the
                      sentence). ZooKeeper: every Curator and kazoo recipe (a LeaderLatch, a LeaderSelector and a kazoo
                      Election among them); not Lockboard's own lock. Stop or fence the old holder first
${COMMON_HELP}
  --if-gone           release only when the holder is judged gone at release time (lockboard why); otherwise
                      exit 11 naming the verdict, nothing touched. Without --version: the version just judged
  --json              print { outcome, current }

The object is re-read first: anything that is not a recognised lock (a Terraform .tfstate, any data object, an
unknown format) is refused (13) and never deleted. Caddy certmagic locks have their temporary hold cleared first.

Outcomes: released (exit 0); changed: a new holder took it (11); refreshed: the holder is alive (11); gone (12);
not a lock (13).

Example:
  lockboard release deploy-prod --generation 1714000000123456 --reason "runner died, job cancelled"
  lockboard release gs://tf-state/prod/default.tflock --generation 1714000000123456 --reason "apply killed"
  lockboard release s3://tf-state/envs/prod/terraform.tfstate.tflock --version 9b2c…e1.1763900000000 --reason "apply killed"
  lockboard release redis://cache-1:6379/0 locks:nightly --version 3f2a9c0d1e2b4a5c --reason "worker OOM-killed"

${EXIT_CODES_HELP}`;

export async function releaseCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('release', argv, {
    ...COMMON_OPTIONS,
    generation: { type: 'string' },
    metageneration: { type: 'string' },
    version: { type: 'string' },
    reason: { type: 'string' },
    operator: { type: 'string' },
    'accept-two-leaders': { type: 'boolean', default: false },
    'if-gone': { type: 'boolean', default: false },
  });
  if (values.help) {
    console.log(RELEASE_HELP);
    return EXIT.ok;
  }
  if (!values.reason?.trim())
    throw new UsageError('--reason is required: say why you clear this lock (it is audited).');
  if (positionals.length > 2) throw new UsageError(`Expected a lock, got ${positionals.length} arguments.`);
  // --generation G [--metageneration M]: GCS's older form of --version G.M
  if (values.version === undefined && values.generation !== undefined)
    values.version = `${values.generation}${values.metageneration !== undefined ? `.${values.metageneration}` : ''}`;
  const target = resolveTarget(values, positionals, { wantName: true });
  try {
    return await storeRelease(target, {
      version: values.version,
      reason: values.reason.trim(),
      operator: values.operator ?? safeUser(),
      json: values.json,
      acceptTwoLeaders: values['accept-two-leaders'] === true,
      ifGone: values['if-gone'] === true,
    });
  } catch (err) {
    if (!(err instanceof AuditWriteError)) throw err;
    console.error(escapeText(`lockboard release: ${err.message}`, { keepNewlines: true }));
    return EXIT.storage;
  }
}

export function safeUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}
