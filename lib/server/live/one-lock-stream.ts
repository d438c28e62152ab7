// The lock page's stream behind GET /api/lock-stream (Server-Sent Events): the lock as `lock` events, sent again
// whenever the source's watcher sees that name change (its store's change feed where it has one, else its listing
// pace) or its health move with time; `tick` carries the server's time every 15 s. One subscription per open page,
// on the same shared watcher as the list: the page no longer polls its lock.
import 'server-only';
import { processWide } from '../process/process-wide';
import { randomBytes } from 'node:crypto';
import { inScope, viewerOf } from '../auth/access';
import { lockAddress } from '@/lib/lock/address';
import { BURST_EVIDENCE_MS } from '@/lib/lock/store';
import { env } from '../env';
import type { RouteUser } from '../http';
import { getForConsole } from '../locks';
import { serverTimeOf } from '../lock-status';
import { metrics } from '../metrics/metrics';
import { isStopping, onStop } from '../process/shutdown';
import type { Source } from '../sources';
import { openSse } from './sse';
import { watcherFor, type SourceChange } from './watch';
import { signedOutNow } from '../auth/session-revocations';

const TICK_MS = 15_000;
const COALESCE_MS = 100;
const ACCESS_CHECK_MS = 1_000;
const EPOCH = randomBytes(4).toString('hex');
const open = processWide('oneLockStreams', () => new Set<() => void>());

export function oneLockStream(
  source: Source,
  name: string,
  user: RouteUser,
  o: { signal: AbortSignal },
): ReadableStream<Uint8Array> {
  // a lock outside the reader's grants streams exactly as one that does not exist
  const viewer = viewerOf(user.access);
  let seq = 0;
  let reading: NodeJS.Timeout | undefined;
  const sse = openSse({
    onCancel: () => {
      open.delete(sse.close);
      clearTimeout(reading);
      metrics.streams.dec();
    },
  });
  const send = (event: string, data: unknown) => {
    metrics.sent.inc({ event: `lock-${event}` });
    sse.write(`id: ${EPOCH}-${++seq}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  // after a change, holder evidence a moment old will do (a Lease renewed every 2 s read on every open page)
  const read = async (maxEvidenceAgeMs = BURST_EVIDENCE_MS) => {
    try {
      send('lock', await getForConsole(source, name, viewer, { maxEvidenceAgeMs }));
    } catch (err) {
      send('failure', { message: (err as Error).message });
    }
  };
  const onChange = (change: SourceChange | null) => {
    if (!change?.changes.some((c) => (c.after ?? c.before)?.name === name)) return;
    reading ??= setTimeout(() => {
      reading = undefined;
      void read();
    }, COALESCE_MS);
  };
  return sse.stream(
    async () => {
      metrics.streams.inc();
      open.add(sse.close);
      onStop(() => {
        for (const end of [...open]) end();
      });
      if (isStopping()) return (sse.write('retry: 2000\n\n'), sse.close());
      o.signal.addEventListener('abort', sse.close, { once: true });
      sse.write('retry: 1000\n\n');
      const ends = Math.min(Date.now() + (env().LOCKBOARD_STREAM_MAX ?? 240_000), user.expiresAt ?? Infinity);
      sse.after(Math.max(0, ends - Date.now()), sse.close);
      const tick = () => {
        if (!user.unchanged() || signedOutNow(user.sid)) return sse.close();
        send('tick', { serverTime: serverTimeOf([source]) });
        sse.after(TICK_MS, tick);
      };
      sse.after(TICK_MS, tick);
      // grants withdrawn (a token removed from the access file, the file deleted): ended within a second
      const check = () => (user.unchanged() ? sse.after(ACCESS_CHECK_MS, check) : sse.close());
      sse.after(ACCESS_CHECK_MS, check);
      // a lock outside the reader's scope is never watched: no event tells when it changes
      if (inScope(viewer.scope, lockAddress(source, name))) sse.onClose(watcherFor(source).subscribe(onChange));
      await read(0);
    },
    () => undefined,
  );
}
