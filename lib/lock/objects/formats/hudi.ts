// Apache Hudi StorageBasedLockProvider: `.hoodie/.locks/table_lock.json`, body {expired, validUntil, owner};
// `expired: true` is a released marker; otherwise stale after validUntil (ms, writer clock).
import { details, jsonBody, stringField, type LockFormatModule } from './types';

export const HUDI_LOCK = /(?:^|\/)\.hoodie\/\.locks\/table_lock\.json$/;

export const hudi: LockFormatModule = {
  id: 'hudi',
  label: 'Apache Hudi table lock',
  needsBody: (view) => HUDI_LOCK.test(view.name),
  read(view) {
    if (!HUDI_LOCK.test(view.name)) return null;
    const body = jsonBody(view);
    const dropped: string[] = [];
    const owner = stringField(body, 'owner', dropped);
    const validUntil = typeof body?.validUntil === 'number' ? body.validUntil : undefined;
    const reading = {
      identity: owner,
      details: details([
        ['Owner', owner],
        ['Valid until (ms)', stringField(body, 'validUntil', dropped)],
      ]),
      dropped,
    };
    if (body?.expired === true) return { ...reading, released: true };
    if (validUntil === undefined) return { ...reading, note: 'the body has no numeric validUntil' };
    return { ...reading, staleAt: validUntil };
  },
  release: 'delete',
  releaseNote: 'Deletes the table lock; a writer still holding it fails its next renewal.',
};
