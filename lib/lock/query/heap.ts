// A binary min-heap of (time, row): the rows whose health changes at a time with no write, popped when it passes.
// Times and rows in two parallel arrays (the times unboxed): 16 bytes an entry, where an object per entry took 48.

export class TransitionHeap<T = { name: string }> {
  private ats: number[] = [];
  private rows: T[] = [];

  get size(): number {
    return this.rows.length;
  }

  push(at: number, row: T): void {
    this.ats.push(at);
    this.rows.push(row);
    this.up(this.rows.length - 1, at, row);
  }

  /**
   * Keeps only the entries `keep` accepts (a row replaced since its entry was pushed is dead weight: a lock whose TTL
   * is extended every few seconds would otherwise leave one entry per extension until its old time passed).
   */
  retain(keep: (row: T, at: number) => boolean): void {
    const [ats, rows] = [this.ats, this.rows];
    this.ats = [];
    this.rows = [];
    for (let i = 0; i < rows.length; i++) if (keep(rows[i]!, ats[i]!)) this.push(ats[i]!, rows[i]!);
  }

  private up(from: number, at: number, row: T): void {
    const { ats, rows } = this;
    let i = from;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (ats[parent]! <= at) break;
      ats[i] = ats[parent]!;
      rows[i] = rows[parent]!;
      i = parent;
    }
    ats[i] = at;
    rows[i] = row;
  }

  /** Every row whose time is at or before `now`, earliest first. */
  popDue(now: number): T[] {
    const due: T[] = [];
    while (this.rows.length && this.ats[0]! <= now) due.push(this.pop());
    return due;
  }

  private pop(): T {
    const { ats, rows } = this;
    const top = rows[0]!;
    const lastAt = ats.pop()!;
    const last = rows.pop()!;
    const n = rows.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      let minAt = lastAt;
      if (l < n && ats[l]! < minAt) {
        min = l;
        minAt = ats[l]!;
      }
      if (r < n && ats[r]! < minAt) min = r;
      if (min === i) break;
      ats[i] = ats[min]!;
      rows[i] = rows[min]!;
      i = min;
    }
    ats[i] = lastAt;
    rows[i] = last;
    return top;
  }
}
