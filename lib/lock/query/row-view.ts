// A window's row: what the table paints, without the sentences every lock of a format shares (the store's terms, the
// release note) and without the verdict's evidence (the table shows the verdict and its sentence; the lock page and
// the release dialog read the whole lock, evidence and all). Keeps a window of 100 judged rows under 100 KB.
export function rowView<T extends { terms?: unknown; releaseNote: string; note?: string; evidence?: unknown }>(
  lock: T,
): Omit<T, 'terms'> & { terms?: undefined } {
  return { ...lock, terms: undefined, releaseNote: '', note: undefined, evidence: undefined };
}
