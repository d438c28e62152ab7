// lockboard mysql init [mysql://…]: without a source, prints the DDL of Lockboard's tables for a DBA; with one, creates
// them there if absent (lockboard_audit, lockboard_fence). Lockboard never alters a table it did not create.
import { initCommand } from './init';

const MYSQL_HELP = `Usage: lockboard mysql init [mysql://user@host:3306/db]

Without a source: prints the DDL of Lockboard's tables, for a DBA to run in the database Lockboard reads.
With a source: creates them there if they do not exist (the console and "lockboard run" also create them on first
use):
  - lockboard_audit: every force-release, recorded before anything is changed and after;
  - lockboard_fence: the fencing tokens of "lockboard run" (its lock is a named lock, GET_LOCK).

The password comes from the URL or MYSQL_PWD.

Options:
  -h, --help   show help`;

export const mysqlCommand = initCommand('mysql', MYSQL_HELP);
