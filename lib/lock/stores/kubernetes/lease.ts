// The Lease as the store reads and writes it (coordination.k8s.io/v1), the MicroTime the apiserver accepts, and the
// thin request interface the store needs (the real one in client.ts, a fake for unit tests of pure logic).
import type { HolderApi } from './holder-types';

export interface Lease {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace: string;
    uid?: string;
    resourceVersion?: string;
    creationTimestamp?: string | Date;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
  };
  spec?: {
    holderIdentity?: string | null;
    leaseDurationSeconds?: number | null;
    acquireTime?: string | null;
    renewTime?: string | null;
    leaseTransitions?: number | null;
  };
}

export interface LeasePage {
  items: Lease[];
  resourceVersion: string;
  next?: string;
  /** Leases too large to read (bounded-list.ts): counted, not listed. */
  unread?: number;
}

/** The apiserver's answer to a refused request: its HTTP status and its own message. */
export class KubeRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'KubeRequestError';
  }
}

export interface LeaseWatchHandlers {
  event(type: string, lease: Lease | undefined, status?: { code?: number; message?: string }): void;
  done(err: unknown): void;
}

/** What the store asks of the apiserver; every call is one HTTP request. */
export interface LeaseApi {
  /** Where the apiserver is, for messages (never with credentials). */
  readonly server: string;
  list(namespace: string | undefined, o: { limit: number; continue?: string }): Promise<LeasePage>;
  read(namespace: string, name: string): Promise<Lease | null>;
  /** PUT: 409 when `metadata.resourceVersion` is not the current one. */
  replace(lease: Lease): Promise<Lease>;
  create(lease: Lease): Promise<Lease>;
  watch(namespace: string | undefined, resourceVersion: string, h: LeaseWatchHandlers): Promise<() => void>;
  /** The Pods and Nodes holders name, for the verdict (holders.ts); absent where the client offers none. */
  holders?: HolderApi;
  /** Requests sent so far (for the bench). */
  requests: number;
  /** The most bytes one list response had (bounded by the list budget). */
  largestRead?: number;
}

/**
 * A MicroTime as the apiserver parses it: exactly six fractional digits (`2026-11-25T10:43:22.123000Z`). A JS Date or
 * `toISOString()` has three, and the apiserver answers 400 (facts-coordination §1.4).
 */
export function microTime(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString();
  return `${iso.slice(0, -1)}000Z`;
}

/** A MicroTime or Time read back (client-node may hand back a string or a Date): milliseconds, or undefined. */
export function timeOf(v: string | Date | null | undefined): number | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  const ms = v instanceof Date ? v.getTime() : Date.parse(v);
  return Number.isFinite(ms) ? ms : undefined;
}

/** `namespace/name`: one Lease's key, whatever the source. */
export const keyOf = (l: Lease): string => `${l.metadata.namespace}/${l.metadata.name}`;
