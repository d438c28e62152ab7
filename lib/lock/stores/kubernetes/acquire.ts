// acquireKubeLease: Lockboard's lock as a client-go candidate takes it (leaderelection.go tryAcquireOrRenew): read
// the Lease; create it when absent; take it when nobody holds it, or when this candidate has seen it unchanged for
// its leaseDurationSeconds on its own clock (never by comparing the writer's renewTime with ours); otherwise wait.
import { LockOptionsError } from '../../errors';
import { defaultIdentity, type LeaseRequest } from '../../holding/options';
import { MAX_TIMER_MS, monotonicNow } from '../../time';
import type { LockInfo } from '../../types';
import { waitForLock } from '../../holding/wait';
import { KubeRequestError, microTime, type Lease, type LeaseApi } from './lease';
import { KubeLeaseLock, type KubeLockSettings } from './lock';

export interface KubeAcquireOptions extends Omit<LeaseRequest, 'purpose'> {
  api: LeaseApi;
  namespace: string;
  /** The Lease's name. */
  name: string;
  /** The holder as the store shows it, for onWait and timeouts. */
  holder?: () => Promise<LockInfo | null>;
}

const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

function settingsOf(o: KubeAcquireOptions): KubeLockSettings {
  if (!NAME.test(o.name))
    throw new LockOptionsError(
      `Expected a Lease name (lower-case letters, digits, "-" and ".", at most 253), got ${JSON.stringify(o.name)}`,
    );
  const ttlMs = o.ttlMs ?? 15_000;
  if (!Number.isInteger(ttlMs) || ttlMs < 1_000 || ttlMs > MAX_TIMER_MS)
    throw new LockOptionsError(`Expected \`ttlMs\` to be whole seconds from 1000 to ${MAX_TIMER_MS}, got ${ttlMs}`);
  const refreshIntervalMs = o.refreshIntervalMs ?? Math.max(200, Math.floor(ttlMs / 8));
  if (refreshIntervalMs > ttlMs / 3)
    throw new LockOptionsError(`Expected \`refreshIntervalMs\` at most ttlMs / 3, got ${refreshIntervalMs}`);
  const identity = o.identity ?? defaultIdentity();
  return { namespace: o.namespace, name: o.name, identity, ttlMs, refreshIntervalMs };
}

export async function acquireKubeLease(o: KubeAcquireOptions): Promise<KubeLeaseLock> {
  const s = settingsOf(o);
  let observed: { rv: string; at: number } | undefined;
  const attempt = async (): Promise<KubeLeaseLock | null> => {
    const current = await o.api.read(s.namespace, s.name);
    const nowMs = Date.now();
    const spec = {
      holderIdentity: s.identity,
      leaseDurationSeconds: Math.ceil(s.ttlMs / 1000),
      acquireTime: microTime(nowMs),
      renewTime: microTime(nowMs),
      leaseTransitions: 0,
    };
    try {
      if (!current) {
        const created = await o.api.create({ metadata: { name: s.name, namespace: s.namespace }, spec });
        return new KubeLeaseLock(o.api, s, '0', created);
      }
      if (!mayTake(current)) return null;
      const held = current.spec ?? {};
      const transitions = (held.leaseTransitions ?? 0) + (held.holderIdentity === s.identity ? 0 : 1);
      const next: Lease = { ...current, spec: { ...held, ...spec, leaseTransitions: transitions } };
      const written = await o.api.replace(next);
      return new KubeLeaseLock(o.api, s, String(transitions), written);
    } catch (err) {
      // 409: another candidate wrote first (a create's AlreadyExists, or a PUT on a stale resourceVersion)
      if (err instanceof KubeRequestError && err.status === 409) return null;
      throw err;
    }
  };
  /** Free, ours, or unchanged for its whole lease since this candidate first saw this version of it. */
  const mayTake = (l: Lease): boolean => {
    const holder = l.spec?.holderIdentity ?? '';
    if (holder === '' || holder === s.identity) return true;
    const rv = l.metadata.resourceVersion ?? '';
    if (observed?.rv !== rv) observed = { rv, at: monotonicNow() };
    const duration = l.spec?.leaseDurationSeconds;
    if (!duration) return false; // no duration (Terraform's lock): never expires
    return monotonicNow() - observed.at > duration * 1000;
  };
  return waitForLock(
    { name: `${s.namespace}/${s.name}`, timeoutMs: o.timeoutMs, signal: o.signal, onWait: o.onWait },
    attempt,
    async () => (o.holder ? o.holder() : null),
  );
}
