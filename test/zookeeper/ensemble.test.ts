// Whether the members a source lists are the whole ensemble, from `conf` and `srvr` as Debian's ZooKeeper 3.8.0
// answered them (captured from a real three-member ensemble on loopback and a standalone server), and the sign of a
// session in no member's cons for each blind spot: members not read, conf refused, a session never seen connected,
// one past its timeout, and one that outlived it (renewed between two reads, unseen).
import { describe, expect, it } from 'vitest';
import { absentSign } from '@/lib/lock/stores/zookeeper/absent-sign';
import { parseMemberConf, reachOf, type MemberConf } from '@/lib/lock/stores/zookeeper/ensemble';
import { SessionMemory } from '@/lib/lock/stores/zookeeper/session-memory';
import type { Sessions } from '@/lib/lock/stores/zookeeper/sessions';
import { pointsOf, type HolderSign } from '@/lib/lock/verdict/verdict';

/** `conf` of member 1 of a three-member ensemble (QuorumPeerMain, static config). */
const QUORUM_CONF = `clientPort=43181
secureClientPort=-1
dataDir=/tmp/zkq/d1/version-2
dataDirSize=597
dataLogDir=/tmp/zkq/d1/version-2
dataLogSize=597
tickTime=2000
maxClientCnxns=60
minSessionTimeout=4000
maxSessionTimeout=40000
clientPortListenBacklog=-1
serverId=1
initLimit=10
syncLimit=5
electionAlg=3
electionPort=43381
quorumPort=43281
peerType=0
membership: 
server.1=127.0.0.1:43281:43381:participant
server.2=127.0.0.1:43282:43382:participant
server.3=127.0.0.1:43283:43383:participant
version=0`;

const STANDALONE_CONF = `clientPort=42181
secureClientPort=-1
dataDir=/tmp/zkcap/version-2
dataDirSize=457
dataLogDir=/tmp/zkcap/version-2
dataLogSize=457
tickTime=2000
maxClientCnxns=60
minSessionTimeout=4000
maxSessionTimeout=40000
clientPortListenBacklog=-1
serverId=0
`;

const srvr = (mode: string) => `Zookeeper version: 3.8.0\nLatency min/avg/max: 0/0.0/0\nMode: ${mode}\nNode count: 5\n`;
const member = (conf: string, mode: string): MemberConf => parseMemberConf(conf, srvr(mode));
const sign = (points: HolderSign['points'], says: string, fact: string): HolderSign => ({
  points,
  says,
  fact,
  from: 'cons',
  at: new Date(0).toISOString(),
});

describe('the reach of the members read', () => {
  it('reads a member’s id, the membership and the session bounds from conf', () => {
    const m = member(QUORUM_CONF, 'follower');
    expect(m).toEqual({
      serverId: '1',
      members: new Map([
        ['1', '127.0.0.1'],
        ['2', '127.0.0.1'],
        ['3', '127.0.0.1'],
      ]),
      standalone: false,
      maxSessionTimeoutMs: 40_000,
      tickMs: 2000,
    });
  });

  it('names the members of the ensemble a one-member source does not read', () => {
    const reach = reachOf(['10.0.0.1:2181'], new Map([['10.0.0.1:2181', member(QUORUM_CONF, 'follower')]]), []);
    expect(reach).toEqual({
      whole: false,
      notRead: ['server.2 (127.0.0.1)', 'server.3 (127.0.0.1)'],
      maxSessionTimeoutMs: 40_000,
      tickMs: 2000,
    });
  });

  it('counts a standalone server as the whole ensemble, and every member answering as whole', () => {
    const alone = reachOf(['h:2181'], new Map([['h:2181', member(STANDALONE_CONF, 'standalone')]]), []);
    expect(alone.whole).toBe(true);
    const conf = (id: string) => QUORUM_CONF.replace('serverId=1', `serverId=${id}`);
    const all = new Map(
      ['1', '2', '3'].map((id) => [`h${id}:2181`, member(conf(id), id === '3' ? 'leader' : 'follower')]),
    );
    expect(reachOf([...all.keys()], all, [])).toMatchObject({ whole: true, notRead: [] });
  });

  it('is not whole where a member of an ensemble refuses conf', () => {
    const reach = reachOf(['h1:2181'], new Map(), ['h1:2181 does not whitelist conf']);
    expect(reach).toEqual({ whole: false, notRead: ['h1:2181'], why: 'h1:2181 does not whitelist conf' });
  });
});

describe('a session in no member’s cons', () => {
  const sid = 'a1';
  const sessions = (reach: Sessions['reach'], memory = new SessionMemory()): Sessions => ({
    bySid: new Map(),
    asked: ['10.0.0.1:2181'],
    reach,
    memory,
  });
  const one = reachOf(['10.0.0.1:2181'], new Map([['10.0.0.1:2181', member(QUORUM_CONF, 'follower')]]), []);
  const whole = { whole: true, notRead: [], maxSessionTimeoutMs: 40_000, tickMs: 2000 };

  it('is unknown on a one-member source of a three-member ensemble, naming the members not read', () => {
    const s = absentSign(sid, '0xa1', sessions(one), 0, sign);
    expect([pointsOf(s), s.says]).toEqual([
      'unknown',
      'session 0xa1 is not in the cons of the members read (10.0.0.1:2181), but the ensemble also has server.2 (127.0.0.1), server.3 (127.0.0.1), not read: it may be connected there; listing every member in the source would settle it',
    ]);
  });

  it('is unknown for the longest session timeout when it was never seen connected', () => {
    const s = absentSign(sid, '0xa1', sessions(whole), 1_000, sign);
    expect(s).toMatchObject({ points: 'unknown', settleMs: 40_000 });
    expect(s.says).toBe(
      'session 0xa1 is connected to no member of the ensemble (absent from every member’s cons for 0 s, never seen connected by this reader): its client may resume it on any member until the servers’ longest session timeout (maxSessionTimeout 40 s: it was never seen connected) has passed, 40 s from now',
    );
  });

  it('is gone once its own timeout has passed since the first pass that missed it, within a tick', () => {
    const memory = new SessionMemory();
    memory.observe([[sid, { timeoutMs: 6_000 }]], 0);
    expect(absentSign(sid, '0xa1', sessions(whole, memory), 3_000, sign).points).toBe('unknown'); // first miss
    expect(absentSign(sid, '0xa1', sessions(whole, memory), 8_999, sign).settleMs).toBe(1);
    const gone = absentSign(sid, '0xa1', sessions(whole, memory), 9_000, sign);
    expect([pointsOf(gone), gone.basis]).toEqual(['gone', 'absence']);
    expect(gone.says).toBe(
      'session 0xa1 has been connected to no member of the ensemble past its 6 s timeout (absent from every member’s cons for 6 s, last seen connected 9 s ago): ZooKeeper ends it at its next tick, and its node with it',
    );
  });

  it('is unknown once it outlived its timeout and a tick: ZooKeeper renewed it between two reads', () => {
    const memory = new SessionMemory();
    memory.observe([[sid, { timeoutMs: 6_000 }]], 0);
    absentSign(sid, '0xa1', sessions(whole, memory), 1_000, sign);
    const renewed = absentSign(sid, '0xa1', sessions(whole, memory), 9_500, sign);
    expect(renewed).toMatchObject({ points: 'unknown', settleMs: 6_000 });
    expect(renewed.says).toMatch(/outlived its 6 s timeout .*its client reconnected between two reads$/);
    // its absence starts over from that read
    expect(absentSign(sid, '0xa1', sessions(whole, memory), 10_000, sign).points).toBe('unknown');
  });

  it('starts its absence over once it is seen connected again', () => {
    const memory = new SessionMemory();
    memory.observe([[sid, { timeoutMs: 6_000 }]], 0);
    absentSign(sid, '0xa1', sessions(whole, memory), 1_000, sign);
    memory.observe([[sid, { timeoutMs: 6_000 }]], 5_000);
    expect(absentSign(sid, '0xa1', sessions(whole, memory), 7_500, sign).points).toBe('unknown');
  });

  it('starts its absence over after a pass that was not whole, or a gap between passes', () => {
    const memory = new SessionMemory();
    const pass = (nowMs: number, whole = true) => (
      memory.pass(nowMs, whole),
      absentSign(sid, '0xa1', sessions(whole ? { ...one, whole: true } : one, memory), nowMs, sign)
    );
    memory.observe([[sid, { timeoutMs: 6_000 }]], 0);
    pass(1_000);
    pass(3_000, false); // a member did not answer: the session may have been there
    expect(pass(7_500).points).toBe('unknown'); // absent since 7.5 s, not 1 s
    expect(pass(13_000).says).toMatch(/for 6 s, .* 1 s from now$/); // 5.5 s later: still counting from 7.5 s
    expect(pass(24_000).says).toMatch(/absent from every member’s cons for 0 s/); // an 11 s gap: counted again
  });
});
