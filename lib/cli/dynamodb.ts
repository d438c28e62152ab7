// lockboard dynamodb init [dynamodb://TABLE]: creates the tables Lockboard needs if absent: the audit table
// (lockboard-audit, or the source's ?audit=TABLE; hash key `lock`, sort key `id`), and, when a source is given, that
// lock table for Lockboard's own lock (hash key `key`). Lockboard never alters a table it did not create.
import { initCommand } from './init';

const DYNAMODB_HELP = `Usage: lockboard dynamodb init [dynamodb://TABLE[?audit=AUDIT_TABLE]]

Creates, if they do not exist (on-demand capacity):
  - the audit table every force-release is recorded in before anything is deleted (default lockboard-audit; hash
    key "lock", sort key "id");
  - with a source: that table, for Lockboard's own lock (hash key "key"). An existing table is left as it is
    (Terraform's lock table works as it is: its hash key is LockID).

Region from AWS_REGION; AWS_ENDPOINT_URL_DYNAMODB for a local server. Needs dynamodb:CreateTable and
dynamodb:DescribeTable once; the console and the CLI need only the actions listed in the README.

Options:
  -h, --help   show help`;

export const dynamodbCommand = initCommand('dynamodb', DYNAMODB_HELP);
