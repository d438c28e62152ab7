// A whole listing with every body read, for a caller that prints everything at once (`lockboard ls`): pages are
// listed metadata first while the bodies of earlier pages are already being read (bounded concurrency), instead of
// waiting for each page's bodies before asking for the next page.
import type { LockStore, LockView } from './store';

export interface FullListing {
  locks: LockView[];
  skipped: number;
  /** Why some of the skipped could not be read, as the store said (at most MAX_WHY). */
  skippedWhy: string[];
  serverTime: string;
}

const MAX_WHY = 50;

export async function listAll(store: LockStore): Promise<FullListing> {
  const byName = new Map<string, LockView>();
  let skipped = 0;
  const skippedWhy: string[] = [];
  let serverTime = '';
  let waiting = 0;
  let listed = false;
  let done!: () => void;
  const allRead = new Promise<void>((r) => (done = r));
  const settle = () => listed && waiting === 0 && done();
  const later = ({ views, dropped }: { views: LockView[]; dropped: string[] }) => {
    for (const v of views) if (byName.get(v.name)?.pending) byName.set(v.name, v);
    for (const name of dropped) {
      if (!byName.get(name)?.pending) continue;
      byName.delete(name);
      skipped++;
    }
    waiting -= views.length + dropped.length;
    settle();
  };
  let token: string | undefined;
  do {
    const page = await store.list(token, { later });
    for (const lock of page.locks) {
      byName.set(lock.name, lock);
      if (lock.pending) waiting++;
    }
    skipped += page.skipped;
    for (const why of page.skippedWhy ?? []) if (skippedWhy.length < MAX_WHY) skippedWhy.push(why);
    serverTime = page.serverTime;
    token = page.nextPageToken;
  } while (token);
  listed = true;
  settle();
  await allRead;
  return { locks: [...byName.values()], skipped, skippedWhy, serverTime };
}
