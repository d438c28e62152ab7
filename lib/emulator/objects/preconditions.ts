import { conditionNotMet, notModified } from '../errors';
import type { Preconditions, StoredObject } from '../types';

/**
 * Checks GCS preconditions against the targeted version (undefined = no live object).
 * Reads answer 304 for the "NotMatch" conditions, as GCS does; writes answer 412.
 */
export function checkPreconditions(obj: StoredObject | undefined, pre: Preconditions, read = false): void {
  const { ifGenerationMatch, ifGenerationNotMatch, ifMetagenerationMatch, ifMetagenerationNotMatch } = pre;
  if (ifGenerationMatch !== undefined) {
    const ok = ifGenerationMatch === 0 ? obj === undefined : obj?.generation === ifGenerationMatch;
    if (!ok) throw conditionNotMet('x-goog-if-generation-match');
  }
  if (ifMetagenerationMatch !== undefined && obj?.metageneration !== ifMetagenerationMatch) {
    throw conditionNotMet('x-goog-if-metageneration-match');
  }
  if (ifGenerationNotMatch !== undefined) {
    const fails = ifGenerationNotMatch === 0 ? obj === undefined : obj?.generation === ifGenerationNotMatch;
    if (fails) throw read ? notModified() : conditionNotMet('x-goog-if-generation-not-match');
  }
  if (ifMetagenerationNotMatch !== undefined && obj !== undefined && obj.metageneration === ifMetagenerationNotMatch) {
    throw read ? notModified() : conditionNotMet('x-goog-if-metageneration-not-match');
  }
}
