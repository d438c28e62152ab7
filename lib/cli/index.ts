// The lockboard command: dispatch, top-level help, and one place that turns errors into messages and exit codes.
import { EMULATOR_HELP, runEmulatorCommand } from '../emulator/command';
import { LockOptionsError } from '../lock';
import { configuredBucket, EXIT, EXIT_CODES_HELP, storageFailure, UsageError } from './common';
import { LS_HELP, lsCommand, STATUS_HELP, statusCommand } from './inspect';
import { RELEASE_HELP, releaseCommand } from './release';
import { RUN_HELP, runCommand } from './run';

const HELP = `Usage: lockboard <command> [options]

Distributed locks on Google Cloud Storage, for scripts and CI/CD pipelines.

Commands:
  run <lock> -- <cmd>   run a command while holding the lock (like flock(1), across machines)
  ls [prefix]           list locks with owner, health, held for, expires in, generation
  status <lock>         one lock in detail (exit 0 held, 10 free)
  release <lock>        force-release one generation (operators; audited)
  emulator              run the local GCS emulator

Run "lockboard <command> --help" for options and examples.
Configuration: --bucket / LOCKBOARD_BUCKET, --endpoint / LOCKBOARD_GCS_ENDPOINT, --prefix / LOCKBOARD_PREFIX.

${EXIT_CODES_HELP}`;

const COMMANDS: Record<string, [(argv: string[]) => Promise<number>, string]> = {
  run: [runCommand, RUN_HELP],
  ls: [lsCommand, LS_HELP],
  status: [statusCommand, STATUS_HELP],
  release: [releaseCommand, RELEASE_HELP],
  emulator: [runEmulatorCommand, EMULATOR_HELP],
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(HELP);
    return name ? EXIT.ok : EXIT.usage;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(
      `lockboard: unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(', ')}. See "lockboard --help".`,
    );
    return EXIT.usage;
  }
  try {
    return await command[0](rest);
  } catch (err) {
    if (err instanceof UsageError || err instanceof LockOptionsError) {
      console.error(`lockboard ${name}: ${err.message}`);
      return EXIT.usage;
    }
    const bucket = configuredBucket() ?? process.env.LOCKBOARD_BUCKET ?? '';
    const failure = storageFailure(err, bucket);
    if (failure) {
      console.error(`lockboard ${name}: ${failure.message}`);
      return failure.code;
    }
    console.error(`lockboard ${name}: ${(err as Error).message ?? String(err)}`);
    if (process.env.LOCKBOARD_DEBUG) console.error(err);
    return EXIT.error;
  }
}
