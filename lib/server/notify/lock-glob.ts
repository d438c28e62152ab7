// The address globs of a webhook's `locks`: `*` matches any run of characters (`/` included, so `gs://tf-state/*`
// is every lock of the bucket), `?` one character, everything else itself. Replaced by the grants' matcher (#47).

const cache = new Map<string, RegExp>();

function globRegExp(glob: string): RegExp {
  let re = cache.get(glob);
  if (!re) {
    const body = glob
      .split('')
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\/-]/g, '\\$&')))
      .join('');
    re = new RegExp(`^${body}$`, 's');
    if (cache.size > 1_000) cache.clear();
    cache.set(glob, re);
  }
  return re;
}

/** Whether `address` is matched by one of `globs` (none given: every lock). */
export function notifyGlobsMatch(globs: readonly string[] | undefined, address: string): boolean {
  if (!globs || globs.length === 0) return true;
  return globs.some((g) => globRegExp(g).test(address));
}
