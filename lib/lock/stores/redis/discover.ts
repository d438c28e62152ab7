// Discovery on Redis: `redis://HOST:PORT` reads INFO keyspace (one request) for the databases holding keys, and each
// is then listed as `ls redis://HOST:PORT/DB` lists it (SCAN pages up to the sample), its locks grouped by their
// key prefix (`lock:`, `locks/`); `redis://HOST:PORT/DB` names one database.
import type { OpenOptions, SourceSpec } from '../types';
import { targetUrl, TargetError, type Discovery } from '../discovery';
import type { RedisClientLike } from './conn';
import { parseRedisSource } from './source';

type Connect = (spec: SourceSpec, o: OpenOptions) => Promise<{ client: RedisClientLike; close(): Promise<void> }>;

/** The databases INFO keyspace names (`db0:keys=12,expires=3,…`), with their key counts. */
function keyspaceDbs(info: string): { db: number; keys: number }[] {
  return [...info.matchAll(/^db(\d+):keys=(\d+)/gm)].map((m) => ({ db: Number(m[1]), keys: Number(m[2]) }));
}

export function redisDiscovery(connect: Connect): Discovery {
  return {
    target: 'redis://HOST:PORT[/DB]',
    async roots(target, c) {
      const u = targetUrl(target, 'redis://HOST:PORT');
      const base = `${u.protocol}//${u.username || u.password ? `${u.username}:${u.password}@` : ''}${u.host}`;
      if (/^\/\d+$/.test(u.pathname)) return { roots: [`${base}${u.pathname}`], problems: [] };
      if (u.pathname.replace(/\/$/, '') || u.search)
        throw new TargetError(`expected redis://HOST:PORT or redis://HOST:PORT/DB, got ${JSON.stringify(u.href)}`);
      const r = parseRedisSource(`${base}/0`, c.env);
      const spec = { kind: 'redis', id: r.display, bucket: r.display, bucketId: r.display, prefix: '', url: r.url };
      const { client, close } = await connect(spec, { env: c.env, role: 'cli' });
      try {
        if (!c.spend()) return { roots: [], problems: [], capped: true };
        const send = client as unknown as { sendCommand(args: string[]): Promise<unknown> };
        const info = String(await send.sendCommand(['INFO', 'keyspace']));
        const dbs = keyspaceDbs(info).filter((d) => d.keys > 0);
        return { roots: dbs.map((d) => `${base}/${d.db}`), problems: [] };
      } finally {
        await close();
      }
    },
    // a prefix of plain characters only: anything SCAN MATCH or a URL would read as syntax keeps the whole database
    narrow: (root, group) => (/^[\w.-]+[:/]$/.test(group) ? `${root}?match=${group}*` : undefined),
  };
}
