// What a release request says about the owner it saw: a short digest of the identity (FNV-1a, 64 bits), never the
// identity's full text, so any lock (a 6 000-character identity too) can be released and a batch of 100 stays small.
// It only tells a refresh by the same owner from a successor's lock; the version is what a release is pinned to.
// Client-safe (the dialogs compute it in the browser).

const OFFSET = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

export const OWNER_DIGEST = /^[0-9a-f]{16}$/;

export function ownerDigest(identity: string): string {
  let h = OFFSET;
  for (const byte of new TextEncoder().encode(identity)) h = ((h ^ BigInt(byte)) * PRIME) & MASK;
  return h.toString(16).padStart(16, '0');
}
