// lockboard hold / unhold: a lock taken on purpose, with a reason and an end, written in the contender's own format
// (lib/lock/hold.ts), so Terraform and the rest wait for it by themselves and print who and why.
import { AuditWriteError } from '../lock';
import { endHold, HoldRefusedError, placeHold, REASON_MAX } from '../lock/hold';
import { describeOutcome, OUTCOME_EXIT } from '../lock/outcomes';
import { STORES } from '../lock/stores';
import { escapeText } from '../text/safe-text';
import { formatDuration, formatTime, parseDurationMs } from '../text/format';
import { COMMON_HELP, COMMON_OPTIONS, EXIT, EXIT_CODES_HELP, parseFlags, UsageError } from './common';
import { safeUser } from './release';
import { resolveTarget } from './target';

const HOLDING = STORES.filter((s) => s.hold)
  .map((s) => s.label)
  .join(', ');

const HOLD_HELP = `Usage: lockboard hold SOURCE NAME --reason TEXT --for DURATION [--format F] [--operator NAME]

Takes the lock NAME on purpose ("state surgery on prod, do not apply"), written in its contenders' own format, so
they wait for it by themselves and print who holds it and why. Stores that can hold: ${HOLDING}.

  Terraform (.tflock on gs:// and s3://): a LockInfo whose Who names you and the hold's end and whose Info is the
  reason; a blocked "terraform plan" prints both. Terraform never ends its lock by itself: end it with
  "lockboard unhold" (the console ends it at its time).
  Lockboard's own lock (gs://): ends by itself at the hold's end (its ttl_ms).
  Redis (redis://): Lockboard's value set with SET NX PX, so every SET-NX family (redis-py, node-redlock,
  go-redsync, bsm/redislock, Laravel) finds the key taken and waits; Redis ends it at the hold's end.
  etcd: a concurrency.Mutex key on a lease of the hold's length (etcdctl lock waits); PostgreSQL and MySQL:
  a ShedLock row (SCHEMA.TABLE/NAME, TABLE/NAME) with locked_by naming the hold and lock_until its end;
  DynamoDB: Terraform's LockID item; Azure: the state blob's infinite lease with terraformlockid metadata, as
  Terraform's azurerm backend takes it; Kubernetes: a client-go Lease (--ack-leader-election).

Options:
  --reason TEXT       why (required; at most ${REASON_MAX} characters, fewer where the format says so; no control
                      characters). Recorded in the audit trail (hold-placed)
  --for DURATION      how long: 30m, 2h, 3d (at most what the format can express: the error names it)
  --format F          the store's format: terraform, lockboard (gs://), redis, etcd-mutex, shedlock, lease
                      (default: the store's format that fits the name: terraform for *.tflock)
  --operator NAME     who (default: the OS user)
  --ack-leader-election
                      needed for a Kubernetes Lease: every Lease is a leader election, and holding it stops every
                      candidate from leading until the hold ends
${COMMON_HELP}
  --json              print { outcome, until, version, lock }

A held lock is never overwritten: holding a name something holds is refused (11) naming its holder.

Example:
  lockboard hold gs://tf-state/ prod/default.tflock --reason "INC-123 state surgery" --for 2h

${EXIT_CODES_HELP}`;

const UNHOLD_HELP = `Usage: lockboard unhold SOURCE NAME [--version V] [--operator NAME]

Ends a hold: the store's pinned release of exactly the hold read (or of version V, as "lockboard hold" printed it).
Anything else under NAME (a hold someone replaced, a contender's own lock) is refused (11) and nothing is deleted.
Recorded in the audit trail (hold-ended).

Options:
  --version V         the hold's version as "lockboard hold" printed it
  --operator NAME     who (default: the OS user)
${COMMON_HELP}
  --json              print { outcome, lock }

${EXIT_CODES_HELP}`;

export async function holdCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('hold', argv, {
    ...COMMON_OPTIONS,
    reason: { type: 'string' },
    for: { type: 'string' },
    format: { type: 'string' },
    operator: { type: 'string' },
    'ack-leader-election': { type: 'boolean', default: false },
  });
  if (values.help) return help(HOLD_HELP);
  if (values.reason === undefined) throw new UsageError('--reason is required: say why the lock is held.');
  if (values.for === undefined) throw new UsageError('--for is required: how long the hold lasts, e.g. 2h.');
  const forMs = parseDurationMs(values.for);
  if (forMs === null)
    throw new UsageError(
      `--for must be a duration like 30m, 2h or 3d, at most 366 days; got ${JSON.stringify(values.for)}.`,
    );
  const target = resolveTarget(values, positionals, { wantName: true });
  const operator = values.operator ?? safeUser();
  return refusedAs11(async () => {
    const acks = values['ack-leader-election'] ? ['ack-leader-election'] : [];
    const request = { name: target.name!, operator, reason: values.reason!, forMs, format: values.format, acks };
    const { plan, view, auditError } = await placeHold(target.spec, { env: target.env, role: 'cli' }, request);
    const until = new Date(plan.untilMs).toISOString();
    if (values.json)
      console.log(JSON.stringify({ outcome: 'held', until, version: view?.version, lock: view }, null, 2));
    else {
      console.log(
        escapeText(
          `Held ${plan.name} in ${target.spec.id} as ${plan.format.label} by ${operator} until ${formatTime(until)} ` +
            `(${formatDuration(plan.untilMs - plan.sinceMs)}): ${plan.reason}`,
        ),
      );
      if (view) console.log(escapeText(`Version ${view.version}.`));
      console.log(
        plan.format.endsItself
          ? 'The store ends it by itself at that time; "lockboard unhold" ends it sooner.'
          : 'Nothing ends it by itself: "lockboard unhold" (or a console running then) ends it.',
      );
    }
    if (auditError)
      console.error(escapeText(`lockboard hold: held, but not recorded in the audit trail: ${auditError}`));
    return EXIT.ok;
  });
}

export async function unholdCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('unhold', argv, {
    ...COMMON_OPTIONS,
    version: { type: 'string' },
    operator: { type: 'string' },
  });
  if (values.help) return help(UNHOLD_HELP);
  const target = resolveTarget(values, positionals, { wantName: true });
  const name = target.name!;
  return refusedAs11(async () => {
    const request = { name, operator: values.operator ?? safeUser(), version: values.version };
    const { result, version: read } = await endHold(target.spec, { env: target.env, role: 'cli' }, request);
    const outcome = result?.outcome ?? 'gone';
    if (values.json) console.log(JSON.stringify({ outcome, lock: result?.current ?? null }, null, 2));
    else {
      const where = `${name} in ${target.spec.id}`;
      const version = read ?? values.version ?? '';
      const holder = result?.current?.identity;
      console.log(escapeText(describeOutcome(outcome, { where, version, ...(holder ? { holder } : {}) })));
    }
    return OUTCOME_EXIT[outcome];
  });
}

function help(text: string): number {
  console.log(text);
  return EXIT.ok;
}

/** A refused hold or end says why (exit 11); an unwritable trail says nothing was done (exit 3). */
async function refusedAs11(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof HoldRefusedError) {
      console.error(escapeText(`lockboard: refused: ${err.message}`));
      return EXIT.refused;
    }
    if (!(err instanceof AuditWriteError)) throw err;
    console.error(escapeText(`lockboard: ${err.message}`, { keepNewlines: true }));
    return EXIT.storage;
  }
}
