// A holder process for the demo that acquires a lock and then is killed (SIGKILL) by the demo: a real crash.
import { Storage } from '@google-cloud/storage';
import { acquireLock } from '../lock';

const [endpoint, bucket, name, ttl] = process.argv.slice(2);
const storage = new Storage({ apiEndpoint: endpoint!, projectId: 'demo' });
const lock = await acquireLock({
  storage,
  bucket: bucket!,
  name: name!,
  ttlMs: Number(ttl),
  purpose: 'nightly report',
});
process.stdout.write(`acquired ${lock.generation}\n`);
setInterval(() => {}, 60_000);
