'use client';
// The hold dialog's state: the formats the lock's store offers (GET /api/locks/hold), the fields, and the hold itself
// (POST /api/locks/hold: the CLI's limits and refusals, answered in its words).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiFetch, refreshAfterRelease } from '@/lib/console/queries';

export interface HoldFormatOption {
  id: string;
  label: string;
  maxWords: string;
  endsItself: boolean;
  /** Why holding in this format needs an acknowledgement (a Kubernetes Lease: a leader election). */
  ack?: string;
  /** Why this format cannot be held without a live session. */
  session?: string;
  fits?: boolean;
}

export interface Held {
  outcome: 'held';
  until: string;
  format: string;
  endsItself: boolean;
  version?: string;
  auditError?: string;
}

const where = (name: string, bucket?: string) => ({ name, ...(bucket ? { bucket } : {}) });

export function useHold(name: string, bucket: string | undefined, onHeld: (held: Held) => void) {
  const queryClient = useQueryClient();
  const formats = useQuery({
    queryKey: ['hold-formats', name, bucket],
    queryFn: () =>
      apiFetch<{ formats: HoldFormatOption[]; none?: string }>(
        `/api/locks/hold?${new URLSearchParams(where(name, bucket))}`,
      ),
  });
  const offered = formats.data?.formats ?? [];
  const [chosen, setFormat] = useState<string | undefined>();
  const format = offered.find((f) => f.id === chosen) ?? offered.find((f) => f.fits) ?? offered[0];
  const [reason, setReason] = useState('');
  const [duration, setDuration] = useState('1h');
  const [acked, setAcked] = useState(false);
  const hold = useMutation({
    mutationFn: () =>
      apiFetch<Held>('/api/locks/hold', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ...where(name, bucket),
          reason,
          for: duration,
          ...(format ? { format: format.id } : {}),
          ...(format?.ack && acked ? { ackLeaderElection: true } : {}),
        }),
      }),
    onSuccess: onHeld,
    onSettled: () => refreshAfterRelease(queryClient),
  });
  const canSubmit =
    Boolean(format) && !format?.session && reason.trim() !== '' && (!format?.ack || acked) && !hold.isPending;
  return {
    formats,
    offered,
    format,
    fields: { reason, setReason, duration, setDuration, acked, setAcked, setFormat },
    hold,
    canSubmit,
  };
}
