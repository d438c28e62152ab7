// The lockboard command: dispatch, top-level help, and one place that turns errors into messages and exit codes.
import { readFileSync } from 'node:fs';
import { setAuditKey } from '../lock/audit/trust';
import { escapeText } from '../text/safe-text';
import { EXIT, EXIT_CODES_HELP } from './exit';
import { quietSdkNotices } from './sdk-notices';

const NL = { keepNewlines: true };

const help = (stores: string, sources: string) => `Usage: lockboard <command> [options]

Distributed locks on ${stores}, for scripts and CI/CD pipelines.

Commands:
  run <lock> -- <cmd>   run a command while holding the lock (like flock(1), across machines)
  ls [source]           list locks with owner, health, held for, expires in, version
  status <lock>         one lock in detail (exit 0 held, 10 free, 13 not a lock)
  why <lock>            why it is held: its holder gone, stalled, alive or unknown, and the evidence
  release <lock>        force-release exactly the version seen (operators; audited)
  discover <target>…    find where locks live (gs://, redis://HOST:PORT, --from-terraform DIR…), read-only
  hold <src> <name>     hold a lock on purpose, with a reason and an end, in its contenders' own format
  unhold <src> <name>   end a hold (a pinned release of exactly that hold)
  emulator              run the local GCS (and S3) emulator
  postgres init <src>   create Lockboard's PostgreSQL lock tables
  dynamodb init [src]   create Lockboard's DynamoDB audit table (and lock table)
  mysql init [src]      print (or create) Lockboard's MySQL/MariaDB tables
  --version             print the version

Run "lockboard <command> --help" for options and examples.
Configuration: --bucket / LOCKBOARD_BUCKET, --endpoint / LOCKBOARD_GCS_ENDPOINT, --prefix / LOCKBOARD_PREFIX;
or a source URL:
${sources}

${EXIT_CODES_HELP}`;

type Command = (argv: string[]) => Promise<number>;

/** Each command's module is loaded when it runs (the GCS client alone takes ~150 ms to load). */
const COMMANDS: Record<string, () => Promise<Command>> = {
  run: async () => (await import('./run')).runCommand,
  ls: async () => (await import('./inspect')).lsCommand,
  status: async () => (await import('./inspect')).statusCommand,
  why: async () => (await import('./why')).whyCommand,
  release: async () => (await import('./release')).releaseCommand,
  discover: async () => (await import('./discover/command')).discoverCommand,
  hold: async () => (await import('./hold')).holdCommand,
  unhold: async () => (await import('./hold')).unholdCommand,
  emulator: async () => (await import('../emulator/command')).runEmulatorCommand,
  postgres: async () => (await import('./postgres')).postgresCommand,
  dynamodb: async () => (await import('./dynamodb')).dynamodbCommand,
  mysql: async () => (await import('./mysql')).mysqlCommand,
};

export async function main(argv: string[]): Promise<number> {
  quietSdkNotices();
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    // The stores' names come from the registry, loaded only for help (not on every command's start)
    const { STORE_NAMES, SOURCE_LINES } = await import('./help-stores');
    console.log(help(STORE_NAMES, SOURCE_LINES('  ')));
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    console.log(version());
    return EXIT.ok;
  }
  const key = process.env.LOCKBOARD_AUDIT_KEY;
  if (key !== undefined && key !== '' && key.length < 32) {
    console.error('lockboard: LOCKBOARD_AUDIT_KEY must be the deployment’s audit key (at least 32 characters).');
    return EXIT.usage;
  }
  // the records this command writes (a release, a run's own lock events) are signed with it
  setAuditKey(key);
  const command = COMMANDS[name];
  if (!command) {
    console.error(
      `lockboard: unknown command "${escapeText(name)}". Commands: ${Object.keys(COMMANDS).join(', ')}. See "lockboard --help".`,
    );
    return EXIT.usage;
  }
  try {
    return await (
      await command()
    )(rest);
  } catch (err) {
    const [{ LockOptionsError }, { storageFailure, UsageError }] = await Promise.all([
      import('../lock'),
      import('./common'),
    ]);
    if (err instanceof UsageError || err instanceof LockOptionsError) {
      console.error(escapeText(`lockboard ${name}: ${err.message}`, NL));
      return EXIT.usage;
    }
    const bucket = process.env.LOCKBOARD_BUCKET ?? '';
    const failure = storageFailure(err, bucket);
    if (failure) {
      console.error(escapeText(`lockboard ${name}: ${failure.message}`, NL));
      return failure.code;
    }
    console.error(escapeText(`lockboard ${name}: ${(err as Error).message ?? String(err)}`, NL));
    if (process.env.LOCKBOARD_DEBUG) console.error(err);
    return EXIT.error;
  }
}

/** The package's version: package.json sits two levels up from both lib/cli and dist/cli. */
function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
