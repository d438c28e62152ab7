// Discovery on PostgreSQL: `postgres://USER@HOST:PORT/` reads pg_database (one query, through the database the URL
// names or "postgres") for the databases that take connections; each is then listed as `ls postgres://…/DB` lists
// it: the tables whose columns match a known lock shape and the advisory locks held now. Terraform's pg backend
// keeps its lock as an advisory lock in conn_str's database.
import type { OpenOptions, SourceSpec } from '../types';
import { targetUrl, type Discovery } from '../discovery';

type Query = { query(sql: string, values?: unknown[]): Promise<{ rows: { datname: string; may: boolean }[] }> };
type Connect = (
  spec: SourceSpec,
  o: Pick<OpenOptions, 'role'>,
) => Promise<{ client: unknown; close(): Promise<unknown> }>;

export function postgresDiscovery(connect: Connect): Discovery {
  return {
    target: 'postgres://USER@HOST:PORT/',
    async roots(target, c) {
      const u = targetUrl(target, 'postgres://USER@HOST:PORT/');
      const named = u.pathname.replace(/^\//, '');
      if (named) return { roots: [target], problems: [] };
      const at = (db: string) => Object.assign(new URL(target), { pathname: `/${db}` }).href;
      const spec: SourceSpec = {
        kind: 'postgres',
        id: at('postgres'),
        bucket: '',
        bucketId: '',
        prefix: '',
        url: at('postgres'),
      };
      const { client, close } = await connect(spec, { role: 'cli' });
      try {
        if (!c.spend()) return { roots: [], problems: [], capped: true };
        // a database this user may not connect to is named as such, never left out in silence
        const sql =
          'SELECT datname, has_database_privilege(datname, $1) AS may FROM pg_database WHERE datallowconn AND NOT datistemplate ORDER BY datname LIMIT $2';
        const { rows } = await (client as Query).query(sql, ['CONNECT', c.limit + 1]);
        const seen = rows.slice(0, c.limit);
        const roots = seen.filter((r) => r.may).map((r) => at(r.datname));
        const problems = seen
          .filter((r) => !r.may)
          .map((r) => `${at(r.datname)}: not listed (permission denied: this user has no CONNECT on it)`);
        return { roots, problems, capped: rows.length > c.limit };
      } finally {
        await close();
      }
    },
    terraform(type, a) {
      if (type !== 'pg') return undefined;
      if (!a.conn_str)
        return { sources: [], problems: ['backend "pg" names no conn_str (set PG_CONN_STR or its -backend-config)'] };
      return { sources: [a.conn_str], problems: [] };
    },
  };
}
