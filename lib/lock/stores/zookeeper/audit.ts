// The ZooKeeper audit trail: persistent sequential nodes under `<source path>/.lockboard/audit`, named
// `e-<milliseconds>-<seq>` so a window is chosen from the names and only its events are read; each is dated by its
// node's ctime (the server's), not by the name or body its writer chose.
import { AUDIT_STRING_FIELDS, type AuditRecord } from '../../audit/record';
import { isUnreachable, long, type ZkConn } from './conn';
import { joinPath } from './source';
import { signAuditFields } from '../../audit/trust';
import { jsonObject } from '../../support/untrusted';

const auditPath = (base: string) => joinPath(base, '.lockboard/audit');

export async function recordEvent(conn: ZkConn, base: string, fields: Record<string, string>): Promise<string> {
  const dir = auditPath(base);
  const at = Date.now();
  const body = Buffer.from(JSON.stringify({ ...signAuditFields(fields, at), at: new Date(at).toISOString() }));
  const create = () => conn.create(`${dir}/e-${at}-`, body, conn.zk.CreateMode.PERSISTENT_SEQUENTIAL);
  try {
    return await create();
  } catch {
    await conn.mkdirp(dir); // the first event under this source
    return create();
  }
}

export async function readEvents(
  conn: ZkConn,
  base: string,
  from: Date,
  to: Date,
  lock?: string,
): Promise<AuditRecord[]> {
  const dir = auditPath(base);
  // no trail yet is an empty one; a server that cannot be reached is an error, never an empty trail
  const names = await conn.children(dir).catch((err: unknown) => {
    if (isUnreachable(err)) throw err;
    return [] as string[];
  });
  const inWindow = names.filter((n) => {
    const ms = Number(/^e-(\d+)-/.exec(n)?.[1]);
    return ms >= from.getTime() && ms < to.getTime();
  });
  const nodes = await Promise.all(inWindow.map((n) => conn.read(`${dir}/${n}`)));
  const out: AuditRecord[] = [];
  for (const node of nodes) {
    if (!node) continue;
    // any JSON a writer put there: an object or nothing; its fields are checked by type where they are read
    const f = jsonObject(node.data.toString('utf8'));
    if (!f || typeof f.event !== 'string' || typeof f.lock !== 'string' || !f.event) continue;
    if (lock && f.lock !== lock) continue;
    // the node's ctime: set by the ZooKeeper leader when it created the node, never the writer's `at`
    const at = new Date(Number(long(node.stat.ctime))).toISOString();
    const record = { id: node.path, at, event: f.event, lock: f.lock } as AuditRecord;
    for (const k of AUDIT_STRING_FIELDS) if (typeof f[k] === 'string') record[k] = f[k] as never;
    out.push(record);
  }
  return out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}
