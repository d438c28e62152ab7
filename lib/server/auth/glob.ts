// Globs over lock addresses, as grants (and webhooks) write them: `*` matches any run of characters (slashes too),
// every other character itself. Compiled once to an anchored regular expression.

const cache = new Map<string, RegExp>();

/** The anchored regular expression of a glob (`*` any run of characters, nothing else special). */
export function globRegExp(glob: string): RegExp {
  let re = cache.get(glob);
  if (!re) {
    const body = glob
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
      .join('.*');
    re = new RegExp(`^${body}$`, 's');
    if (cache.size > 10_000) cache.clear();
    cache.set(glob, re);
  }
  return re;
}

/** Whether `address` matches `glob`. */
export function globMatches(glob: string, address: string): boolean {
  return glob === '*' || globRegExp(glob).test(address);
}

/** One function testing an address against any of `globs` (undefined: every address matches, a `*` among them). */
export function anyGlob(globs: readonly string[]): ((address: string) => boolean) | undefined {
  if (globs.includes('*')) return undefined;
  if (globs.length === 0) return () => false;
  const res = [...new Set(globs)].map(globRegExp);
  return (address) => res.some((re) => re.test(address));
}

/** The literal text before a glob's first `*`: every address it matches starts with it. */
export function globLiteralPrefix(glob: string): string {
  const star = glob.indexOf('*');
  return star < 0 ? glob : glob.slice(0, star);
}

/** Whether some address starting with `start` may match `glob` (a source's base and a grant's glob). */
export function globMayMatchUnder(glob: string, start: string): boolean {
  const literal = globLiteralPrefix(glob);
  if (literal === glob) return glob.startsWith(start);
  return literal.startsWith(start) || start.startsWith(literal);
}
