// A window's row: what the table paints, without the sentences every lock of a format shares (the store's terms, the
// release note); the lock page and the release dialog read the whole lock. Keeps a window of 100 under 100 KB.
export function rowView<T extends { terms?: unknown; releaseNote: string; note?: string }>(
  lock: T,
): Omit<T, 'terms'> & { terms?: undefined } {
  return { ...lock, terms: undefined, releaseNote: '', note: undefined };
}
