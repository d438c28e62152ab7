'use client';

// What a single force-release asks before it runs: a reason, the lock's name typed when its holder may be alive, and
// an explicit yes to a consequence the store names (a leader election's old leader keeps leading).
import { useState } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import { needsTypedName } from '@/lib/console/release-care';

export type ReleaseFields = ReturnType<typeof useReleaseFields>;

export function useReleaseFields(target: LockInfo) {
  const [reason, setReason] = useState('');
  const [typed, setTyped] = useState('');
  // a consequence the store says must be accepted explicitly (a leader election's old leader keeps leading)
  const [accepted, setAccepted] = useState(false);
  const mustAccept = target.terms?.twoLeaders;
  // a holder judged alive (lib/lock/verdict): the API refuses (409) a release without this acknowledgement
  const [aliveAcknowledged, setAliveAcknowledged] = useState(false);
  const holderAlive = target.verdict === 'alive';
  // The same rule as a bulk release's (lib/console/release-care.ts): a live holder, unknown liveness, an ended session
  const needsTyping = needsTypedName(target);
  /** Every question answered: a reason, the name when asked, the consequence when named. */
  const filled =
    reason.trim().length > 0 &&
    (!needsTyping || typed === target.name) &&
    (!mustAccept || accepted) &&
    (!holderAlive || aliveAcknowledged);
  return {
    reason,
    setReason,
    typed,
    setTyped,
    accepted,
    setAccepted,
    mustAccept,
    needsTyping,
    holderAlive,
    aliveAcknowledged,
    setAliveAcknowledged,
    filled,
  };
}
