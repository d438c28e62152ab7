// A sorted array of object names: binary search makes a listing page cost O(log n + page), not a sort of the bucket.
export class SortedNames {
  private readonly names: string[] = [];

  get size(): number {
    return this.names.length;
  }

  at(index: number): string | undefined {
    return this.names[index];
  }

  /** Index of the first name >= `key`. */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.names.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.names[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(name: string): void {
    const last = this.names[this.names.length - 1];
    if (last === undefined || last < name) {
      this.names.push(name);
      return;
    }
    const i = this.lowerBound(name);
    if (this.names[i] !== name) this.names.splice(i, 0, name);
  }

  remove(name: string): void {
    const i = this.lowerBound(name);
    if (this.names[i] === name) this.names.splice(i, 1);
  }
}
