// An audit record's time comes from the store: the time a writer put in a name or a body is kept only when the store's
// own time for the record (an object's creation) agrees with it to within the store's resolution, so a back-dated
// record shows when it was really written.

/** The writer's time when the store's time confirms it (within `toleranceMs`), else the store's. */
export function storeTime(writerIso: string | undefined, storeMs: number, toleranceMs = 2_000): string {
  const claimed = writerIso === undefined ? NaN : Date.parse(writerIso);
  if (Number.isFinite(claimed) && Math.abs(claimed - storeMs) <= toleranceMs) return new Date(claimed).toISOString();
  return new Date(storeMs).toISOString();
}
