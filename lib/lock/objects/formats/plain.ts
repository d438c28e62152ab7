// Create-only lock tools that write a tiny body and no metadata: S0's RemoteLock (`lock`), gsutil scripts
// (`lock\n`), mco-gh/gcslock (`1`), XaF/gcslock-ruby (a bare UUID, shown as the owner). Health is unknown.
import type { LockFormatModule, ObjectView } from './types';

const PLAIN_MAX_BYTES = 64;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const candidate = (view: ObjectView): boolean =>
  Object.keys(view.metadata).length === 0 && view.size > 0 && view.size <= PLAIN_MAX_BYTES && !view.name.endsWith('/');

export const plain: LockFormatModule = {
  id: 'plain',
  label: 'Plain lock object',
  needsBody: candidate,
  read(view) {
    if (!candidate(view) || !view.body) return null;
    const text = view.body.toString('utf8');
    if (text === 'lock' || text === 'lock\n' || text === '1') return { details: [['Body', JSON.stringify(text)]] };
    if (UUID.test(text.trim())) return { identity: text.trim(), details: [['Body (owner id)', text.trim()]] };
    return null;
  },
  noHeartbeat: (r) =>
    `a plain lock object has no heartbeat and no expiry${r.identity ? `; its body names ${r.identity}` : ' and names no owner'}: only whoever created it can settle it`,
  release: 'delete',
  releaseNote: 'Deletes this generation. Its liveness cannot be judged: check with its owner first.',
};
