// `holder-gone`: a lock whose verdict turned `gone` and stayed so for a webhook's `after`, told once per tenure (the
// holder and the version it held: a fixed identity that takes the lock again and is gone again is told again). The
// verdict is read off the views where the console has it (#46); a view without one never counts as gone. A tenure
// counts as told to a webhook only once its claim was made (the caller's `told`): a claim that failed is tried again.
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
  /** The tenure: the holder's identity and the version it held. */
  tenure: string;
  view: HolderView;
  source: Source;
  told: Set<string>;
}

interface DueGone {
  hook: string;
  event: NotifyEvent;
  told: () => void;
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
      const tenure = `${view.identity ?? ''}\u0000${view.version}`;
      const was = this.gone.get(key);
      if (verdict !== 'gone') this.gone.delete(key);
      else if (!was || was.tenure !== tenure) {
        if (this.gone.size >= MAX_FOLLOWED) this.gone.delete(this.gone.keys().next().value!);
        this.gone.set(key, { since: now, tenure, view, source, told: new Set() });
      } else was.view = view;
    }
  }

  /** A lock no longer listed: its clock stops. */
  forget(source: Source, name: string): void {
    this.gone.delete(`${source.id}\u0000${name}`);
  }

  /** Forgets every clock (no webhook listens any more: a later one starts from what is gone then). */
  clear(): void {
    this.gone.clear();
  }

  /** How many locks are followed. */
  get size(): number {
    return this.gone.size;
  }

  /**
   * For each webhook (name, after), the gone tenures it has not been told of whose time has come; `told` marks one told
   * once its claim is made.
   */
  due(hooks: { name: string; after: number }[], now: number, linkBase?: string): DueGone[] {
    const out: DueGone[] = [];
    for (const g of this.gone.values()) {
      for (const hook of hooks) {
        if (g.told.has(hook.name) || now - g.since < hook.after) continue;
        out.push({ hook: hook.name, event: goneEvent(g, now, linkBase), told: () => void g.told.add(hook.name) });
      }
    }
    return out;
  }
}

function goneEvent(g: Gone, now: number, linkBase: string | undefined): NotifyEvent {
  const address = lockAddress(g.source, g.view.name);
  return {
    // the same on every replica: the lock and its tenure (a replica that saw it gone later still names it alike)
    id: stableId(['holder-gone', address, g.tenure]),
    event: 'holder-gone',
    at: new Date(now).toISOString(),
    lock: { address, source: g.source.id, name: g.view.name, store: g.source.store, format: g.view.format ?? null },
    actor: g.view.identity ?? null,
    reason: null,
    outcome: null,
    verdict: 'gone',
    sentence: g.view.sentence ?? null,
    link: lockLink(linkBase, g.view.name, g.source.bucketId),
    verified: null,
  };
}
