// The formats lock-file directories hold: a file or directory per lock, held by a process on this machine.
import { declareFormats, type FormatDeclaration } from '../types';

export const FILES_OWN_FORMATS = declareFormats([
  {
    id: 'excl-file',
    label: 'Empty lock file',
    words: 'An empty file created with O_EXCL (MachineLock, SoftFileLock).',
  },
  { id: 'softfilelock', label: 'filelock SoftFileLock', words: 'py-filelock’s SoftFileLock with its PID and host.' },
  { id: 'kernel-lock', label: 'Kernel file lock', words: 'A file held by flock/fcntl: the kernel knows the process.' },
  { id: 'dotlock', label: 'lockfile-progs / dotlockfile lock', words: 'A NAME.lock file holding its writer’s PID.' },
  { id: 'procmail', label: 'procmail lockfile', words: 'A lock file made by procmail’s lockfile(1).' },
  { id: 'git', label: 'git lock file', words: 'git’s index.lock (or another .lock) while a git command runs.' },
  { id: 'terraform-local', label: 'Terraform local state lock', words: 'Terraform’s .terraform.tfstate.lock.info.' },
  {
    id: 'proper-lockfile',
    label: 'proper-lockfile directory',
    words: 'Node proper-lockfile’s NAME.lock directory, its mtime refreshed.',
  },
  { id: 'pidfile', label: 'PID file', words: 'A file holding the PID (and host) of its holder.' },
  { id: 'mercurial', label: 'Mercurial lock', words: 'Mercurial’s lock symlink naming host:pid.' },
  {
    id: 'lockboard-dir',
    label: 'Lockboard lock directory',
    words: 'Lockboard’s own lock on a directory of lock files.',
  },
]);
export const filesFormats: readonly FormatDeclaration[] = FILES_OWN_FORMATS;
