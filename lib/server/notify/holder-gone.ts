// `holder-gone`: a lock whose verdict turned `gone` and stayed so for a webhook's `after`, told once per holder. The
// verdict is read off the views where the console has it (#46); a view without one never counts as gone.
import type { Source } from '../sources';
import { stableId, type NotifyEvent } from './event';
import { lockAddress } from '@/lib/lock/address';
import { lockLink } from './trail-events';

/** What a view says about its holder; `verdict` and `sentence` only where the console judges them. */
export interface HolderView {
  name: string;
  version: string;
  format?: string;
  identity?: string;
  verdict?: string;
  sentence?: string;
}

interface Gone {
  since: number;
  holder: string;
  view: HolderView;
  source: Source;
  told: Set<string>;
}

/** At most this many locks followed at once (a million gone locks never grow the process without bound). */
const MAX_FOLLOWED = 100_000;

export class HolderGoneTracker {
  private readonly gone = new Map<string, Gone>();

  /** The latest views of `source` (some or all of them): gone ones start (or keep) their clock, others stop it. */
  observe(source: Source, views: HolderView[], now: number): void {
    for (const view of views) {
      const key = `${source.id}\u0000${view.name}`;
      const verdict = view.verdict;
      const holder = view.identity ?? view.version;
      const was = this.gone.get(key);
      if (verdict !== 'gone') this.gone.delete(key);
      else if (!was || was.holder !== holder) {
        if (this.gone.size >= MAX_FOLLOWED) this.gone.delete(this.gone.keys().next().value!);
        this.gone.set(key, { since: now, holder, view, source, told: new Set() });
      } else was.view = view;
    }
  }

  /** A lock no longer listed: its clock stops. */
  forget(source: Source, name: string): void {
    this.gone.delete(`${source.id}\u0000${name}`);
  }

  /** For each webhook (name, after), the gone holders it has not been told of whose time has come. */
  due(
    hooks: { name: string; after: number }[],
    now: number,
    linkBase?: string,
  ): { hook: string; event: NotifyEvent }[] {
    const out: { hook: string; event: NotifyEvent }[] = [];
    for (const g of this.gone.values()) {
      for (const hook of hooks) {
        if (g.told.has(hook.name) || now - g.since < hook.after) continue;
        g.told.add(hook.name);
        out.push({ hook: hook.name, event: goneEvent(g, now, linkBase) });
      }
    }
    return out;
  }
}

function goneEvent(g: Gone, now: number, linkBase: string | undefined): NotifyEvent {
  const address = lockAddress(g.source, g.view.name);
  return {
    // the same on every replica: the lock and its holder (a replica that saw it gone later still names it alike)
    id: stableId(['holder-gone', address, g.holder]),
    event: 'holder-gone',
    at: new Date(now).toISOString(),
    lock: { address, source: g.source.id, name: g.view.name, store: g.source.store, format: g.view.format ?? null },
    actor: g.view.identity ?? null,
    reason: null,
    outcome: null,
    verdict: 'gone',
    sentence: g.view.sentence ?? null,
    link: lockLink(linkBase, g.view.name, g.source.bucketId),
  };
}
