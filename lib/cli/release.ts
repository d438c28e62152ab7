// lockboard release: the console's force-release from a terminal, with the same outcomes and an audit event.
import { userInfo } from 'node:os';
import { AuditWriteError, forceReleaseLock } from '../lock';
import { COMMON_HELP, COMMON_OPTIONS, EXIT, EXIT_CODES_HELP, parseFlags, resolveLock, UsageError } from './common';

export const RELEASE_HELP = `Usage: lockboard release <lock | gs://bucket/object | s3://bucket/key> (--generation G [--metageneration M] | --version V) --reason TEXT [--operator NAME]

Force-releases one lock generation (read it with "lockboard status"). One DELETE conditioned on that generation
(and metageneration, when given): it can never delete a successor's lock. Writes a force-release audit event.

Options:
  --generation G      the generation you saw (required)
  --metageneration M  the metageneration you saw; refuses if the holder refreshed since
  --version V         the version "lockboard ls --json" / "status" shows: GENERATION.METAGENERATION on GCS,
                      ETAG.MILLIS on S3 (S3: one DeleteObject with If-Match on that ETag)
  --reason TEXT       why (required; recorded in the audit trail)
  --operator NAME     who (default: the OS user)
${COMMON_HELP}
  --json              print { outcome, current }

The object is re-read first: anything that is not a recognised lock (a Terraform .tfstate, any data object, an
unknown format) is refused (13) and never deleted. Caddy certmagic locks have their temporary hold cleared first.

Outcomes: released (exit 0); changed: a new holder took it (11); refreshed: the holder is alive (11); gone (12);
not a lock (13).

Example:
  lockboard release deploy-prod --generation 1714000000123456 --reason "runner died, job cancelled"
  lockboard release gs://tf-state/prod/default.tflock --generation 1714000000123456 --reason "apply killed"
  lockboard release s3://tf-state/envs/prod/terraform.tfstate.tflock --version 9b2c…e1.1763900000000 --reason "apply killed"

${EXIT_CODES_HELP}`;

export async function releaseCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('release', argv, {
    ...COMMON_OPTIONS,
    generation: { type: 'string' },
    metageneration: { type: 'string' },
    version: { type: 'string' },
    reason: { type: 'string' },
    operator: { type: 'string' },
  });
  if (values.help) {
    console.log(RELEASE_HELP);
    return EXIT.ok;
  }
  if (!values.reason?.trim())
    throw new UsageError('--reason is required: say why you clear this lock (it is audited).');
  if (positionals.length > 2) throw new UsageError(`Expected a lock, got ${positionals.length} arguments.`);
  if (/^(s3|redis|rediss|postgres|postgresql):\/\//.test(positionals[0] ?? '')) {
    const { storeRelease } = await import('./stores');
    return storeRelease(positionals[0]!, positionals[1], {
      version: values.version,
      reason: values.reason.trim(),
      operator: values.operator ?? safeUser(),
      json: values.json,
    });
  }
  // --version GENERATION.METAGENERATION (what `ls --json` prints as version) or --generation [--metageneration]
  const version = values.version !== undefined ? /^(\d{1,20})\.(\d{1,20})$/.exec(values.version) : undefined;
  if (version === null)
    throw new UsageError(
      `--version must be GENERATION.METAGENERATION for gs:// locks, got ${JSON.stringify(values.version)}.`,
    );
  if (version) [values.generation, values.metageneration] = [version[1], version[2]];
  if (!values.generation || !/^\d+$/.test(values.generation)) {
    throw new UsageError('--generation is required and must be a decimal number (see "lockboard status <lock>").');
  }
  if (values.metageneration !== undefined && !/^\d+$/.test(values.metageneration)) {
    throw new UsageError(`--metageneration must be a decimal number, got ${JSON.stringify(values.metageneration)}.`);
  }
  const { name, ...config } = resolveLock(values, positionals);
  const operator = values.operator ?? safeUser();
  let result;
  try {
    result = await forceReleaseLock({
      storage: config.storage,
      bucket: config.bucket,
      name,
      generation: values.generation,
      metageneration: values.metageneration,
      audit: { operator, reason: values.reason.trim() },
    });
  } catch (err) {
    if (!(err instanceof AuditWriteError)) throw err;
    console.error(`lockboard release: ${err.message}`);
    return EXIT.storage;
  }
  if (values.json) console.log(JSON.stringify(result, null, 2));
  else {
    console.log(
      describe(name, values.generation, result.outcome, result.current?.identity, result.current?.metageneration) +
        (result.outcome === 'not-a-lock' ? ` (${result.current?.note ?? 'unrecognised'})` : ''),
    );
    if (result.confirmed === false)
      console.log(
        'Note: the response to the DELETE was lost and its retry found the lock gone: it was removed by this command or, at the same moment, by its holder.',
      );
    if (result.audit?.attempt)
      console.log(
        `Audit: attempt recorded (${result.audit.attempt})` +
          (result.audit.outcome
            ? `, outcome recorded (${result.audit.outcome}).`
            : `; the outcome could not be recorded: ${result.audit.outcomeError}.`),
      );
  }
  if (result.outcome === 'released') return EXIT.ok;
  if (result.outcome === 'not-a-lock') return EXIT.notALock;
  return result.outcome === 'gone' ? EXIT.gone : EXIT.refused;
}

function describe(name: string, generation: string, outcome: string, holder?: string, meta?: string): string {
  switch (outcome) {
    case 'released':
      return `Released ${name} generation ${generation}.`;
    case 'changed':
      return `Refused: ${name} changed hands since you looked; it is now held by ${holder ?? 'another holder'}. Nothing was deleted.`;
    case 'refreshed':
      return `Refused: the holder of ${name} refreshed since you looked (metageneration ${meta}), so it is alive. Re-run with --metageneration ${meta} to release anyway.`;
    case 'not-a-lock':
      return `Refused: ${name} is not a lock Lockboard recognises, so it is never deleted. Nothing was deleted`;
    default:
      return `${name} generation ${generation} was already gone.`;
  }
}

function safeUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}
