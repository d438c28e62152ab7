// Pure logic of the ZooKeeper store: queue order by sequence (never by name), read/write holders, elections, sources
// (credentials never shown), the servers' `cons`, and readiness on `srvr` rather than `ruok`.
import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { isServing } from '@/lib/demo/zookeeper-server';
import { notToldWords } from '@/lib/lock/stores/zookeeper/not-told';
import { isSelectorId, recipeNode, splitQueue } from '@/lib/lock/stores/zookeeper/recipes';
import { parseCons } from '@/lib/lock/stores/zookeeper/sessions';
import { parseZooKeeperSource } from '@/lib/lock/stores/zookeeper/source';

const curator = (uuid: string, marker: string, seq: number) => `_c_${uuid}-${marker}${String(seq).padStart(10, '0')}`;

describe('ZooKeeper recipe nodes', () => {
  it('orders a queue by the 10-digit sequence, never by the random name prefix', () => {
    // name order (f…, a…, 0…) is the reverse of the sequence order
    const names = [
      curator('ffffffff-0000-0000-0000-000000000000', 'lock-', 1),
      curator('aaaaaaaa-0000-0000-0000-000000000000', 'lock-', 2),
      curator('00000000-0000-0000-0000-000000000000', 'lock-', 3),
    ];
    const { holders, waiters } = splitQueue(names.map((n) => recipeNode(n)!));
    expect(holders.map((h) => h.seq)).toEqual(['0000000001']);
    expect(waiters.map((w) => w.name)).toEqual([names[1], names[2]]);
    expect([...names].sort()[0]).toBe(names[2]); // what a name-sorted console would call the holder
  });

  it('lets readers hold together until the first writer, and a writer only when first', () => {
    const read = (seq: number) => recipeNode(`${'a'.repeat(32)}__rlock__${String(seq).padStart(10, '0')}`)!;
    const write = (seq: number) => recipeNode(`${'b'.repeat(32)}__lock__${String(seq).padStart(10, '0')}`)!;
    const split = splitQueue([write(4), read(2), read(1), read(5)]);
    expect(split.holders.map((h) => h.seq)).toEqual(['0000000001', '0000000002']);
    expect(split.waiters.map((w) => w.seq)).toEqual(['0000000004', '0000000005']);
    expect(splitQueue([read(2), write(1)]).holders.map((h) => h.seq)).toEqual(['0000000001']);
  });

  it('reads every recipe marker and nothing else', () => {
    const uuid = '3e68597d-5c57-4b0d-8bc4-835034726518';
    expect(recipeNode(curator(uuid, 'latch-', 0))?.marker).toBe('latch');
    expect(recipeNode(curator(uuid, '__WRIT__', 0))?.marker).toBe('write');
    expect(recipeNode(curator(uuid, 'lease-', 0))?.shared).toBe(true);
    expect(recipeNode('lock-0000000001')).toBeNull();
    expect(recipeNode('config')).toBeNull();
  });

  it('asks to accept the old holder keeping on for every recipe, never guessing an election from the path', () => {
    expect(notToldWords('curator-leader-latch')).toMatch(/two leaders/);
    // the shared layouts say what is known: either recipe, the same danger
    expect(notToldWords('curator-mutex')).toMatch(/may be a Curator LeaderSelector leader.*exactly this layout/);
    expect(notToldWords('kazoo-lock')).toMatch(/may be a kazoo Election leader.*exactly this layout/);
    for (const f of ['curator-rwlock', 'kazoo-rwlock', 'curator-semaphore', 'kazoo-semaphore', 'kazoo-lease'] as const)
      expect(notToldWords(f)).toMatch(/not told/);
    expect(notToldWords('lockboard')).toBeNull(); // its holder watches its node
    expect(isSelectorId(Buffer.from('127.0.0.1'))).toBe(false);
    expect(isSelectorId(Buffer.from('payments-node-3'))).toBe(true);
  });
});

describe('ZooKeeper sources', () => {
  it('parses hosts and path and never shows the digest credentials', () => {
    const s = parseZooKeeperSource('zk://ops:s3cret@zk1:2181,zk2:2181/locks/');
    expect(s).toMatchObject({ hosts: 'zk1:2181,zk2:2181', path: '/locks', digest: 'ops:s3cret' });
    expect(s.display).toBe('zookeeper://zk1:2181,zk2:2181/locks');
    expect(parseZooKeeperSource('zookeeper://zk1:2181', { ZOOKEEPER_AUTH: 'a:b' }).digest).toBe('a:b');
  });

  it('names the problem and the form for a bad source', () => {
    expect(() => parseZooKeeperSource('zookeeper://zk1/locks')).toThrow(/HOST:PORT/);
    expect(() => parseZooKeeperSource('zookeeper://u:pw@zk1:99999/x')).toThrow(/not a port/);
    expect(() => parseZooKeeperSource('zookeeper://u:pw@zk1/x')).not.toThrow(/pw/);
    expect(() => parseZooKeeperSource('zookeeper://zk1:2181/a/../b')).toThrow(/not a ZooKeeper path/);
  });
});

describe('ZooKeeper four-letter words', () => {
  it('reads each session’s client, timeout, last operation and silence from cons', () => {
    const text =
      ' /127.0.0.1:54872[1](queued=0,recved=5,sent=5,sid=0x100000a43c30003,lop=PING,est=1,to=10000,lcxid=0x1)\n' +
      ' /127.0.0.1:54874[1](queued=0,recved=9,sent=9,sid=0x100000a43c30004,lop=GETD,est=5,to=6000,lresp=1200)\n' +
      ' /127.0.0.1:54876[1](queued=0,recved=9,sent=9,sid=0x100000a43c30005,lop=PING,est=5,to=6000,lresp=9200)\n' +
      ' /127.0.0.1:54880[0](queued=0,recved=1,sent=0)\n';
    expect([...parseCons(text)]).toEqual([
      ['100000a43c30003', { client: '127.0.0.1:54872', timeoutMs: 10000, lop: 'PING', estMs: 1 }],
      // lresp is the server's own elapsed-time counter: silence is measured against its latest answer
      ['100000a43c30004', { client: '127.0.0.1:54874', timeoutMs: 6000, lop: 'GETD', estMs: 5, silentMs: 8000 }],
      ['100000a43c30005', { client: '127.0.0.1:54876', timeoutMs: 6000, lop: 'PING', estMs: 5, silentMs: 0 }],
    ]);
  });

  let fake: Server | undefined;
  afterAll(() => new Promise<void>((r) => (fake ? fake.close(() => r()) : r())));

  it('is not ready while ruok says imok but srvr says it is not serving (the real server at 0.47 s)', async () => {
    fake = createServer((socket) =>
      socket.once('data', (word) =>
        socket.end(String(word) === 'ruok' ? 'imok' : 'This ZooKeeper instance is not currently serving requests\n'),
      ),
    );
    await new Promise<void>((r) => fake!.listen(0, '127.0.0.1', r));
    const port = (fake.address() as { port: number }).port;
    expect(await isServing(`127.0.0.1:${port}`)).toBe(false);
  });
});
