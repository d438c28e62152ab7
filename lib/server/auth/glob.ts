// Globs over lock addresses, as grants and webhooks write them: `*` matches any run of characters (slashes too), `?`
// exactly one, every other character itself. Compiled once to an anchored regular expression. (A grant never holds a
// `?` after its scheme: grants.ts refuses it as a query.)

const cache = new Map<string, RegExp>();

/** The anchored regular expression of a glob (`*` any run of characters, `?` one, nothing else special). */
function globRegExp(glob: string): RegExp {
  let re = cache.get(glob);
  if (!re) {
    const body = [...glob]
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\/]/g, '\\$&')))
      .join('');
    re = new RegExp(`^${body}$`, 'su');
    if (cache.size > 10_000) cache.clear();
    cache.set(glob, re);
  }
  return re;
}

/** Whether `address` matches `glob`. */
export function globMatches(glob: string, address: string): boolean {
  return glob === '*' || globRegExp(glob).test(address);
}

/** Whether `address` matches one of `globs`; none given (a webhook without `locks`): every address does. */
export function someGlobMatches(globs: readonly string[] | undefined, address: string): boolean {
  return !globs || globs.length === 0 || globs.some((g) => globMatches(g, address));
}

/** A test of addresses against globs, carrying its globs (for namesMatcher). */
export type GlobTest = ((address: string) => boolean) & { globs: readonly string[] };

/** One function testing an address against any of `globs` (undefined: every address matches, a `*` among them). */
export function anyGlob(globs: readonly string[]): GlobTest | undefined {
  if (globs.includes('*')) return undefined;
  const unique = [...new Set(globs)];
  const res = unique.map(globRegExp);
  return Object.assign((address: string) => res.some((re) => re.test(address)), { globs: unique });
}

/** A test of one name-level glob: a literal, a literal prefix (`abc*`), or its regular expression. */
function nameTest(glob: string): (name: string) => boolean {
  const wild = glob.search(/[*?]/);
  if (wild < 0) return (n) => n === glob;
  if (wild === glob.length - 1 && glob.endsWith('*')) {
    const literal = glob.slice(0, -1);
    return (n) => n.startsWith(literal);
  }
  const re = globRegExp(glob);
  return (n) => re.test(n);
}

/**
 * Testing names under an address prefix `start` (a source's base and "/") against `globs`, as testing `start + name`
 * would, without building the address: the globs that cannot match there are dropped, the others cut to their name
 * part (a pass over 100 000 rows stays a few milliseconds). Undefined: every name matches.
 */
export function namesMatcher(globs: readonly string[], start: string): ((name: string) => boolean) | undefined {
  const tests: ((name: string) => boolean)[] = [];
  for (const glob of globs.filter((g) => globMayMatchUnder(g, start))) {
    const literal = globLiteralPrefix(glob);
    if (literal.length > start.length) tests.push(nameTest(glob.slice(start.length)));
    else if (/^\*+$/.test(glob.slice(literal.length))) return undefined;
    else {
      const re = globRegExp(glob);
      tests.push((n) => re.test(start + n));
    }
  }
  if (tests.length === 0) return () => false;
  const strip = (n: string) => (n.startsWith('/') ? n.replace(/^\/+/, '') : n);
  return tests.length === 1 ? (n) => tests[0]!(strip(n)) : (n) => tests.some((t) => t(strip(n)));
}

/** The literal text before a glob's first `*` or `?`: every address it matches starts with it. */
function globLiteralPrefix(glob: string): string {
  const wild = glob.search(/[*?]/);
  return wild < 0 ? glob : glob.slice(0, wild);
}

/** Whether some address starting with `start` may match `glob` (a source's base and a grant's glob). */
export function globMayMatchUnder(glob: string, start: string): boolean {
  const literal = globLiteralPrefix(glob);
  if (literal === glob) return glob.startsWith(start);
  return literal.startsWith(start) || start.startsWith(literal);
}
