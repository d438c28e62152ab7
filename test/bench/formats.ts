// Listing a 10 000-object mixed bucket (Terraform state beside .tflock, Pulumi, gcslock, Ruby, plain, data): list
// calls, body reads and time for a first and a second listing (bodies are cached per object generation).
import { Storage } from '@google-cloud/storage';
import { startEmulator } from '@/lib/emulator';
import { listLocks } from '@/lib/lock';
import { printTable, round, writeJson } from './report';

const OBJECTS = 10_000;

export function mixedObject(i: number, now: number): [string, Buffer, Record<string, string> | undefined] {
  const n = String(i).padStart(5, '0');
  switch (i % 8) {
    case 0:
      return [`mixed/tf/${n}/default.tfstate`, Buffer.from(JSON.stringify({ version: 4, serial: i })), undefined];
    case 1:
      return [
        `mixed/tf/${n}/default.tflock`,
        Buffer.from(JSON.stringify({ ID: n, Operation: 'OperationTypeApply', Who: 'ci@runner' })),
        undefined,
      ];
    case 2:
      return [
        `mixed/.pulumi/locks/org/p/s${n}/00000000-0000-4000-8000-${n.padStart(12, '0')}.json`,
        Buffer.from('{"username":"bob","hostname":"h","pid":1}'),
        undefined,
      ];
    case 3:
      return [`mixed/py/${n}`, Buffer.alloc(0), { lock_owner: `w-${n}`, expires_sec: '60' }];
    case 4:
      return [`mixed/ruby/${n}`, Buffer.alloc(0), { identity: `r-${n}`, expires_at: String(now / 1000 + 60) }];
    case 5:
      return [`mixed/gsutil/${n}`, Buffer.from('lock\n'), undefined];
    case 6:
      return [
        `mixed/lb/${n}`,
        Buffer.from('{}'),
        { identity: `l-${n}`, ttl_ms: '60000', refresh_ms: '7500', format: 'lockboard/1' },
      ];
    default:
      return [`mixed/notes/${n}.txt`, Buffer.from('hello'), undefined];
  }
}

async function listAll(storage: Storage) {
  let pageToken: string | undefined;
  let locks = 0;
  let skipped = 0;
  do {
    const page = await listLocks({ storage, bucket: 'bench', prefix: 'mixed/', pageToken });
    locks += page.locks.length;
    skipped += page.skipped.length;
    pageToken = page.nextPageToken;
  } while (pageToken);
  return { locks, skipped };
}

export async function benchFormats() {
  const emulator = await startEmulator({ buckets: ['bench'] });
  const now = Date.now();
  for (let i = 0; i < OBJECTS; i++) {
    const [name, data, metadata] = mixedObject(i, now);
    emulator.store.insertObject('bench', name, data, metadata ? { metadata } : {}, {}, now);
  }
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'bench' });
  const rows = [];
  for (const run of ['first listing', 'second listing (bodies cached)']) {
    emulator.requests.clear();
    const started = performance.now();
    const { locks, skipped } = await listAll(storage);
    const ms = performance.now() - started;
    const entries = emulator.requests.entries;
    rows.push({
      run,
      objects: OBJECTS,
      locks,
      skipped,
      'list calls': entries.filter((e) => e.method === 'GET' && e.path.endsWith('/o')).length,
      'body reads': entries.filter((e) => e.query.alt === 'media').length,
      ms: round(ms),
    });
  }
  await emulator.close();
  printTable(`Listing a ${OBJECTS}-object mixed bucket (8 kinds of object, 1/8 each)`, rows);
  writeJson('formats', { objects: OBJECTS, rows });
  return rows;
}
