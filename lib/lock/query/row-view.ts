// A window's row: what the table paints, without the sentences every lock of a format shares (the store's terms, the
// release note) and without the verdict's evidence (the table shows the verdict and its sentence; the lock page and
// the release dialog read the whole lock, evidence and all). Keeps a window of 100 judged rows under 100 KB.
// The one thing of the terms a row needs stays: whether its `createdAt` is an acquisition or the console's first
// sight (`seenOnly`: the row says "seen for", never "held for").
const SEEN_SINCE = 'Seen since'; // lib/text/format.ts's SEEN_SINCE (this folder imports node built-ins only)

export function rowView<
  T extends { terms?: { since?: string }; releaseNote: string; note?: string; evidence?: unknown },
>(lock: T): Omit<T, 'terms'> & { terms?: undefined; seenOnly?: true } {
  const seen = lock.terms?.since === SEEN_SINCE ? { seenOnly: true as const } : {};
  return { ...lock, terms: undefined, releaseNote: '', note: undefined, evidence: undefined, ...seen };
}
