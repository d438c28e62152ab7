// Counted nouns for people: "1 lock", "2 locks", "1 other object", "1 039 locks" (console and CLI alike).

/** `count` and `noun`, the noun plural unless the count is one: plural("lock", 1) → "1 lock". */
export function plural(noun: string, count: number, o: { plural?: string; format?: (n: number) => string } = {}) {
  const shown = o.format ? o.format(count) : String(count);
  return `${shown} ${count === 1 ? noun : (o.plural ?? `${noun}s`)}`;
}
