// Exit codes, kept free of imports so `lockboard --help` and `--version` start without loading the GCS client.
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  storage: 3,
  free: 10,
  refused: 11,
  gone: 12,
  notALock: 13,
  timeout: 75,
  lost: 76,
} as const;

export const EXIT_CODES_HELP = `Exit codes:
  0   success (run: the command's own exit code; 128+N when it died of signal N)
  1   unexpected error
  2   usage error: a bad flag or argument
  3   storage or configuration error (bucket missing, unreachable, permission denied)
  10  status: the lock is free (absent or expired)
  11  release: refused, the lock changed hands or its holder refreshed since you looked, or (lock files) a
      live process holds it
  12  release: the lock was already gone
  13  release / status: the object is not a lock (a data object such as a .tfstate, or an unrecognised format),
      or it is a waiter queued for a lock (etcd, ZooKeeper): a waiter is never released; nothing was deleted
  75  run: timed out waiting for the lock (or --no-wait and it is held)
  76  run: the lock was lost while the command ran (the command got SIGTERM)
  127 run: the command could not be started (not found or not executable); the lock was released
  130 run: interrupted (Ctrl-C) while waiting for the lock; nothing was held`;
