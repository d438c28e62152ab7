// FileDirLock: Lockboard's lock in a directory on the gendir protocol, refreshed by the path's mtime every ttl/4; a
// refresh that finds the generation gone (taken over, or removed by an operator) aborts `signal`.
import { RefreshingLock, type RefreshResult } from '../../holding/refreshing-lock';
import { refreshGeneration, releaseGeneration } from './gendir';

export class FileDirLock extends RefreshingLock {
  constructor(
    name: string,
    readonly file: string,
    readonly fencingToken: string,
    ttlMs: number,
  ) {
    super(name, ttlMs, Math.max(1, Math.floor(ttlMs / 4)), Math.floor(ttlMs / 10));
  }

  protected refreshOnce(): Promise<RefreshResult> {
    try {
      if (refreshGeneration(this.file)) return Promise.resolve('ok');
      return Promise.resolve({ lost: 'taken', detail: `${this.file} was removed (taken over or released by someone)` });
    } catch {
      return Promise.resolve('retry');
    }
  }

  async release(): Promise<'released' | 'already-lost'> {
    if (!(await this.stopForRelease())) return 'already-lost';
    return releaseGeneration(this.file) ? 'released' : 'already-lost';
  }
}
