// lockboard/files: lock files in a directory. Lockboard's own lock (a generation directory, safe against crashed and
// stalled holders), and the store that lists, names the live holder of, and force-releases every common lock-file
// convention (the seed's O_EXCL file, filelock, flock(1), lockfile-progs, git, Terraform's local state, proper-lockfile,
// pid files, Mercurial). Node's fs only; holders from Linux's /proc.
export { acquireFileLock, withFileLock, type FileAcquireOptions } from './acquire';
export { FileDirLock } from './lock';
export { FilesLockStore } from './store';
export { parseFilesSource, type FilesSource } from './source';
export { scanHolders, parseProcLocks, devKey, type HolderScan } from './proc';
export { removeIfSame, type ProtocolResult } from './release';
