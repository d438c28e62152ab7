// Discovery on MySQL/MariaDB: `mysql://USER@HOST:PORT/` reads SHOW DATABASES (one query; the server's own schemas
// left out); each database is then listed as `ls mysql://…/DB` lists it: tables of a known lock shape (Quartz,
// ShedLock, …) and the named locks held now.
import { targetUrl, type Discovery } from '../discovery';

const SYSTEM = new Set(['information_schema', 'performance_schema', 'mysql', 'sys']);

export const mysqlDiscovery: Discovery = {
  target: 'mysql://USER@HOST:PORT/',
  async roots(target, c) {
    const u = targetUrl(target, 'mysql://USER@HOST:PORT/');
    if (u.pathname.replace(/^\//, '')) return { roots: [target], problems: [] };
    const [{ openSession }, { parseMysqlSource }] = await Promise.all([import('./client'), import('./source')]);
    const at = (db: string) => Object.assign(new URL(target), { pathname: `/${encodeURIComponent(db)}` }).href;
    // a session without a database: SHOW DATABASES lists what this user may see
    const { db, close } = await openSession({ ...parseMysqlSource(at('mysql')), database: '' }, c.env);
    try {
      if (!c.spend()) return { roots: [], problems: [], capped: true };
      const rows = await db.rows<Record<string, string>>('SHOW DATABASES');
      const names = rows.map((r) => Object.values(r)[0]!).filter((n) => !SYSTEM.has(n.toLowerCase()));
      return { roots: names.slice(0, c.limit).map(at), problems: [], capped: names.length > c.limit };
    } finally {
      await close();
    }
  },
};
