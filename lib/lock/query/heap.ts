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
    items.push({ at, row });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (items[parent]!.at <= at) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = { at, row };
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
