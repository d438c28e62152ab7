// lockboard/files: lock files in a directory. Lockboard's own lock (a generation directory, safe against crashed and
// stalled holders), and the store that lists, names the live holder of, and force-releases every common lock-file
// convention (the seed's O_EXCL file, filelock, flock(1), lockfile-progs, git, Terraform's local state, proper-lockfile,
// pid files, Mercurial). Node's fs only; holders from Linux's /proc.
import { judgedStoreClass, type Judged } from '../../verdict/judged-store';
import { FilesLockStore as FilesStoreReads } from './store';
export { acquireFileLock, withFileLock, type FileAcquireOptions } from './acquire';
export { FileDirLock } from './lock';
/** The store's class, judged: every view it hands out carries its verdict (lib/lock/verdict/judged-store.ts). */
export const FilesLockStore = judgedStoreClass(FilesStoreReads);
export type FilesLockStore = Judged<FilesStoreReads>;
export { parseFilesSource, type FilesSource } from './source';
export { scanHolders, parseProcLocks, devKey, type HolderScan } from './proc';
export { removeIfSame, type ProtocolResult } from './release';
