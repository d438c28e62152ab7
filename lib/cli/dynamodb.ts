// lockboard dynamodb init [dynamodb://TABLE]: creates the tables Lockboard needs if absent: the audit table
// (lockboard-audit, or the source's ?audit=TABLE; hash key `lock`, sort key `id`), and, when a source is given, that
// lock table for Lockboard's own lock (hash key `key`). Lockboard never alters a table it did not create.
import { parseSource } from '../lock/stores';
import { EXIT, parseFlags, UsageError } from './common';

export const DYNAMODB_HELP = `Usage: lockboard dynamodb init [dynamodb://TABLE[?audit=AUDIT_TABLE]]

Creates, if they do not exist (on-demand capacity):
  - the audit table every force-release is recorded in before anything is deleted (default lockboard-audit; hash
    key "lock", sort key "id");
  - with a source: that table, for Lockboard's own lock (hash key "key"). An existing table is left as it is
    (Terraform's lock table works as it is: its hash key is LockID).

Region from AWS_REGION; AWS_ENDPOINT_URL_DYNAMODB for a local server. Needs dynamodb:CreateTable and
dynamodb:DescribeTable once; the console and the CLI need only the actions listed in the README.

Options:
  -h, --help   show help`;

export async function dynamodbCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('dynamodb', argv, {
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(DYNAMODB_HELP);
    return EXIT.ok;
  }
  const [sub, url, extra] = positionals;
  if (sub !== 'init')
    throw new UsageError(
      `Unknown subcommand ${JSON.stringify(sub ?? '')}: use "lockboard dynamodb init [dynamodb://TABLE]".`,
    );
  if (extra !== undefined) throw new UsageError(`Unexpected argument ${JSON.stringify(extra)}.`);
  let table: string | undefined;
  let audit = 'lockboard-audit';
  if (url !== undefined) {
    let spec;
    try {
      spec = parseSource(url, process.env);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    if (spec.kind !== 'dynamodb') throw new UsageError(`Expected a dynamodb:// source, got ${spec.id}.`);
    table = spec.id.slice('dynamodb://'.length);
    audit = new URLSearchParams(spec.url.split('?')[1] ?? '').get('audit') ?? audit;
  }
  const [{ dynamoClient }, { createTable }] = await Promise.all([
    import('../lock/stores/dynamodb/definition'),
    import('../lock/stores/dynamodb/audit'),
  ]);
  const client = await dynamoClient(process.env);
  try {
    const made = [(await createTable(client, audit, 'lock', 'id')) ? `created ${audit}` : `${audit} exists`];
    if (table) made.push((await createTable(client, table, 'key')) ? `created ${table}` : `${table} exists`);
    console.log(`Lockboard's DynamoDB tables are ready: ${made.join(', ')}.`);
    return EXIT.ok;
  } finally {
    client.destroy();
  }
}
