// A binary min-heap of (time, row): the rows whose health changes at a time with no write, popped when it passes.

interface Entry<T> {
  at: number;
  row: T;
}

export class TransitionHeap<T = { name: string }> {
  private items: Entry<T>[] = [];

  get size(): number {
    return this.items.length;
  }

  push(at: number, row: T): void {
    const items = this.items;
    const entry = { at, row };
    items.push(entry);
    this.up(items.length - 1, entry);
  }

  /**
   * Keeps only the entries `keep` accepts (a row replaced since its entry was pushed is dead weight: a lock whose TTL
   * is extended every few seconds would otherwise leave one entry per extension until its old time passed).
   */
  retain(keep: (row: T) => boolean): void {
    const kept = this.items.filter((e) => keep(e.row));
    this.items = [];
    for (const e of kept) this.push(e.at, e.row);
  }

  private up(from: number, entry: Entry<T>): void {
    const items = this.items;
    let i = from;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]!.at <= entry.at) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = entry;
  }

  /** Every row whose time is at or before `now`, earliest first. */
  popDue(now: number): T[] {
    const due: T[] = [];
    while (this.items.length && this.items[0]!.at <= now) due.push(this.pop()!);
    return due;
  }

  private pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (!top || !last || items.length === 0) return top?.row;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      const at = (k: number) => (k === i ? last.at : items[k]!.at);
      if (l < items.length && items[l]!.at < at(min)) min = l;
      if (r < items.length && items[r]!.at < at(min)) min = r;
      if (min === i) break;
      items[i] = items[min]!;
      i = min;
    }
    items[i] = last;
    return top.row;
  }
}
