// When a store first saw each (lock, version): "seen since" where a format records no acquire time. Two generations,
// so forgetting costs nothing: a listing pass starts a new generation, a sighting moves its entry into the current
// one, and the generation before the last is dropped whole. A version neither of the last two passes saw is
// forgotten; a pass interleaved with another (the console's and a direct listing) never loses what either read.
export class SeenSince {
  private current = new Map<string, number>();
  private previous = new Map<string, number>();

  /** A listing pass starts. */
  newPass(): void {
    this.previous = this.current;
    this.current = new Map();
  }

  /** When `key` was first seen, `now` if never: recorded as seen in this generation. */
  since(key: string, now: number): number {
    let at = this.current.get(key);
    if (at === undefined) {
      at = this.previous.get(key) ?? now;
      this.previous.delete(key);
      this.current.set(key, at);
    }
    return at;
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }
}
