// Every lock format a store reads, as the registry's union of what the stores declare (each store's folder:
// lock-formats.ts; tool formats several stores share: lib/lock/shared-formats.ts; docs/formats.md says what each is).
import type { DeclaredFormatId } from './stores';

/** A format id a store declares, or `data` / `other` for objects that are not locks (never releasable). */
export type LockFormat = DeclaredFormatId | 'data' | 'other';
