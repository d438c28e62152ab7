// Lock files in the registry: file:///DIR[?depth=N&audit=/dir]. Node's fs only: no SDK to load. Lockboard's own lock
// (`lockboard run --source file:///DIR`) is a generation directory `<name>.lockd/` inside DIR.
import { BURST_EVIDENCE_MS } from '../../store-feeds';
import { holdOn, runOptions, type StoreDefinition } from '../types';
import { FILES_VERSION } from './version';
import { filesDiscovery } from './discover';
import { parseFilesSource } from './source';
import { filesFormats } from './lock-formats';

export const files: StoreDefinition = {
  kind: 'files',
  formats: filesFormats,
  label: 'Lock files',
  versionShape: FILES_VERSION,
  watchIntervalMs: 2_000,
  schemes: ['file'],
  form: 'file:///DIR?depth=N',
  discover: filesDiscovery,
  parse(url) {
    const s = parseFilesSource(url);
    // Directories recording into one ?audit= directory share its trail: read once, each event counted once
    const trail = `file-audit://${s.audit}`;
    return { kind: 'files', id: s.display, bucket: s.dir, bucketId: `file://${s.dir}`, prefix: '', url, trail };
  },
  async open(spec, o) {
    const { FilesLockStore } = await import('./store');
    const src = parseFilesSource(spec.url);
    const fs = await import('node:fs');
    if (!fs.statSync(src.dir, { throwIfNoEntry: false })?.isDirectory())
      throw Object.assign(new Error(`${src.dir} is not a directory: check the path in ${spec.id}`), {
        code: 'CONFIG',
      });
    return new FilesLockStore(src, { longHeldMs: o.longHeldMs });
  },
  async acquire(spec, name, o) {
    const [{ acquireFileLock }, { FilesLockStore }] = await Promise.all([import('./acquire'), import('./store')]);
    const src = parseFilesSource(spec.url);
    const store = new FilesLockStore(src);
    return holdOn({
      name: `${spec.id} ${name}`,
      close: () => undefined,
      acquire: () =>
        acquireFileLock({
          dir: src.dir,
          name,
          ...runOptions(o),
          audit: { dir: src.audit },
          holder: () => store.inspect(`${name}.lockd`, { maxEvidenceAgeMs: BURST_EVIDENCE_MS }), // a waiter polls
        }),
      async release(lock, details) {
        const outcome = await lock.release();
        await store
          .record({ event: 'released', lock: `${name}.lockd`, generation: lock.fencingToken, ...details })
          .catch(() => '');
        return outcome;
      },
    });
  },
};
