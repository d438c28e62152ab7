// lockboard run: run a command only while holding the lock, like flock(1) across machines.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { LockAbortError, LockTimeoutError } from '../lock';
import { acquireOn, isSourceUrl, SOURCE_FORMS, type HeldLock } from '../lock/stores';
import { escapeText } from '../text/safe-text';
import { COMMON_HELP, COMMON_OPTIONS, EXIT, EXIT_CODES_HELP, parseDuration, parseFlags, UsageError } from './common';
import { raceDeadline } from './run-deadline';
import { resolveTarget } from './target';
import { operatorEnv } from './sdk-notices';
import { SOURCE_LINES } from './help-stores';
import { WaitProgress } from './wait-progress';

export const RUN_HELP = `Usage: lockboard run <lock | gs://bucket/object | s3://bucket/key> [options] -- <command> [args...]
       lockboard run SOURCE <lock> [options] -- <command> [args...]
       lockboard run --source SOURCE <lock> [options] -- <command> [args...]

SOURCE is one of:
${SOURCE_LINES('  ')}

Acquires the lock, runs the command with its stdin/stdout/stderr, refreshes the lock while it runs, releases it
when the command ends, and exits with the command's exit code. The command gets LOCKBOARD_FENCING_TOKEN (the lock
generation: pass it to resources that can reject stale writers) and LOCKBOARD_LOCK.

Options:
  --ttl D            lock TTL (default 5m); a crashed holder's lock is taken over after it
  --timeout D        give up waiting after D (default: wait without limit)
  --no-wait          fail at once if the lock is held (same as --timeout 0)
  --purpose TEXT     shown to operators, e.g. "terraform apply prod"
  --identity ID      holder identity (default host:pid:random); a stable one lets a restart adopt its own lock
  --kill-after D     if the lock is lost, SIGKILL the command D after SIGTERM (default 10s)
  --quiet            no progress output while waiting
  --source URL       where the lock lives: a SOURCE above (credentials from each store's own variables, never
                     shown; see the README). kubernetes://NAMESPACE: a Lease written as client-go writes it, --ttl
                     its leaseDurationSeconds; file:///DIR: a DIR/<lock>.lockd generation directory, one machine
${COMMON_HELP}

Durations: 500ms, 30s, 5m, 1h (a bare number is seconds).

Examples:
  lockboard run deploy-prod --bucket my-locks -- ./deploy.sh
  lockboard run dbt-nightly --timeout 10m --purpose "dbt run" -- dbt run
  LOCKBOARD_BUCKET=my-locks lockboard run publish --no-wait -- npm publish
  lockboard run s3://ci-locks/locks/ deploy-prod -- ./deploy.sh   (SOURCE NAME, as ls, status and release take it)
  lockboard run --source redis://127.0.0.1:6379/0 locks:nightly -- ./nightly.sh
  lockboard run --source postgres://lockboard@db:5432/app nightly-report -- ./report.sh
  lockboard run --source file:///srv/lock nightly-report -- ./report.sh
  lockboard run --source kubernetes://ops --ttl 15s db-migrate -- ./migrate.sh
  lockboard run --source etcd://127.0.0.1:2379/locks/ nightly -- ./nightly.sh   (one queue with etcdctl lock)

${EXIT_CODES_HELP}`;

export async function runCommand(argv: string[]): Promise<number> {
  const split = argv.indexOf('--');
  const own = split >= 0 ? argv.slice(0, split) : argv;
  const command = split >= 0 ? argv.slice(split + 1) : [];
  const { values, positionals } = parseRunFlags(own, split >= 0);
  if (values.help) {
    console.log(RUN_HELP);
    return EXIT.ok;
  }
  // SOURCE NAME as every other command takes it, or one lock (a name, a lock URL); --source names the source instead
  const named = values.source === undefined && isSourceUrl(positionals[0]) ? 2 : 1;
  if (positionals.length > named)
    throw new UsageError(`Unexpected argument "${positionals[named]}": put the command after "--".`);
  if (command.length === 0)
    throw new UsageError('Missing the command to run: lockboard run <lock> -- <command> [args...]');
  const ttlMs = parseDuration('ttl', values.ttl) ?? 300_000;
  if (ttlMs < 3000) throw new UsageError(`--ttl must be at least 3s, got ${values.ttl}.`);
  const timeoutMs = values['no-wait'] ? 0 : parseDuration('timeout', values.timeout);
  const killAfterMs = parseDuration('kill-after', values['kill-after']) ?? 10_000;
  const source = values.source;
  if (source !== undefined && !isSourceUrl(source))
    throw new UsageError(`--source must be one of ${SOURCE_FORMS}, got ${JSON.stringify(source)}.`);
  const target = resolveTarget(values, source !== undefined ? [source, ...positionals.slice(0, 1)] : positionals, {
    wantName: true,
  });
  const name = target.name!;

  const waiting = new AbortController();
  const stopWaiting = (): void => waiting.abort();
  process.once('SIGINT', stopWaiting);
  process.once('SIGTERM', stopWaiting);
  const noWait = values['no-wait'];
  // --no-wait tries once: nothing to wait for, so no "Waiting…" line
  const progress = new WaitProgress(name, values.quiet || noWait);
  let lock: HeldLock;
  try {
    const acquisition = acquireOn(target.spec, name, {
      env: target.env,
      role: 'cli',
      ttlMs,
      timeoutMs,
      identity: values.identity,
      purpose: values.purpose,
      signal: waiting.signal,
      onWait: (holder) => progress.update(holder),
      onStoreError: (error, retryInMs) => progress.storageError(error, retryInMs),
    });
    lock = await raceDeadline(acquisition, name, timeoutMs, waiting);
  } catch (err) {
    progress.done();
    if (err instanceof LockTimeoutError) {
      const message = noWait
        ? err.message.replace(
            /^Timed out after \d+ ms waiting for lock ("[^"]*")/,
            'Lock $1 is held (--no-wait: not waiting)',
          )
        : err.message;
      console.error(escapeText(`lockboard: ${message}`, { keepNewlines: true }));
      return EXIT.timeout;
    }
    if (err instanceof LockAbortError) {
      console.error('lockboard: interrupted while waiting for the lock');
      return 130;
    }
    throw err;
  } finally {
    process.off('SIGINT', stopWaiting);
    process.off('SIGTERM', stopWaiting);
  }
  progress.done();
  return holdWhileRunning(lock, command, killAfterMs);
}

async function holdWhileRunning(lock: HeldLock, command: string[], killAfterMs: number): Promise<number> {
  const child = spawn(command[0]!, command.slice(1), {
    stdio: 'inherit',
    env: { ...operatorEnv(), LOCKBOARD_FENCING_TOKEN: lock.token, LOCKBOARD_LOCK: lock.name },
  });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const forwarders = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((s) => [s, forward(s)] as const);
  for (const [s, fn] of forwarders) process.on(s, fn);
  let lost = false;
  let killTimer: NodeJS.Timeout | undefined;
  lock.signal.addEventListener('abort', () => {
    lost = true;
    console.error(escapeText(`lockboard: ${(lock.signal.reason as Error).message}; stopping the command (SIGTERM)`));
    child.kill('SIGTERM');
    killTimer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  });
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  clearTimeout(killTimer);
  for (const [s, fn] of forwarders) process.off(s, fn);
  const code = exit.error ? 127 : (exit.code ?? 128 + (constants.signals[exit.signal!] ?? 0));
  if (exit.error) console.error(`lockboard: cannot run "${command[0]}": ${exit.error.message}`);
  let outcome: string;
  try {
    ({ outcome } = await lock.releaseWith(
      code === 0 ? { outcome: 'ok' } : { outcome: 'error', error: `exit code ${code}` },
    ));
  } catch (err) {
    // The command's result matters more than the release: the lock becomes stale by itself after its TTL.
    console.error(
      escapeText(
        `lockboard: could not release ${lock.name} (${(err as Error).message}); it becomes stale after its TTL`,
      ),
    );
    outcome = 'unreleased';
  }
  if (lost || outcome === 'lost') return EXIT.lost;
  return code;
}

const RUN_OPTIONS = {
  ...COMMON_OPTIONS,
  ttl: { type: 'string' },
  timeout: { type: 'string' },
  'no-wait': { type: 'boolean', default: false },
  purpose: { type: 'string' },
  identity: { type: 'string' },
  'kill-after': { type: 'string' },
  quiet: { type: 'boolean', default: false },
  source: { type: 'string' },
} as const;

/** The run command's own flags; without "--", an unknown option is most likely the command's own (`sh -c`). */
function parseRunFlags(own: string[], separated: boolean) {
  try {
    return parseFlags('run', own, RUN_OPTIONS);
  } catch (err) {
    if (separated || !(err instanceof UsageError) || !/Unknown option/.test(err.message)) throw err;
    throw new UsageError(
      `${err.message.replace(/ Run "lockboard run --help"\.$/, '')} Is it the command's own? Put "--" before the command: lockboard run [options] LOCK -- COMMAND [ARGS...]`,
    );
  }
}
