// DynamoDB's words and truth table, per format: a Terraform item never expires and is never refreshed (never called
// alive); a lock client's lease is judged by two observations a lease apart (a heartbeat writes a new
// recordVersionNumber); Lockboard's own item expires at the time it names, on the service's clock; a FailClosed item
// has no lease.
import type { StoreTerms } from '../../store';
import type { HealthWords } from '../../types';
import type { DynamoReading } from './formats';

const NEVER_JUDGED = (what: string): HealthWords => ({
  meaning: {
    unknown: `Liveness cannot be judged: ${what} It never expires by itself; only its owner or an operator can clear it.`,
    'long-held': `Held longer than the configured limit. ${what} So whether its holder still runs cannot be judged.`,
  },
  advice: {
    unknown: 'Its liveness cannot be judged: check with its owner before clearing.',
    'long-held': 'Its liveness cannot be judged: clear only if its owner confirms its run is gone.',
  },
});

const TERRAFORM = NEVER_JUDGED('Terraform’s lock item has no expiry and its apply never refreshes it.');
const FAIL_CLOSED = NEVER_JUDGED('this item has no lease (FailClosed) and records no heartbeat.');

const LEASE: HealthWords = {
  meaning: {
    healthy: 'Its holder heartbeats: its recordVersionNumber changed within its lease.',
    expired: 'Its recordVersionNumber stayed the same for longer than its lease: its holder stopped heartbeating.',
    'long-held': 'Its holder heartbeats, but has held it longer than the configured limit.',
    free: 'Released (isReleased = 1): nobody holds it; the next client takes it.',
  },
  changes: {
    healthy: 'Every heartbeat pushes the expiry back; a lease without one makes it expired.',
    'long-held': 'Every heartbeat pushes the expiry back; a lease without one makes it expired.',
    expired: 'It stays until the next client takes it over or an operator clears it.',
  },
  advice: {
    healthy: 'The holder is heartbeating. Clearing makes its next heartbeat fail; it should then stop.',
    expired: 'Yes: its holder stopped heartbeating.',
    'long-held': 'The holder is heartbeating. Clear only if you know its job is stuck.',
    free: 'Nobody holds it: clearing this released item is harmless but rarely needed.',
  },
};

const EXPIRING: HealthWords = {
  meaning: {
    healthy: 'Held: the expiry its holder wrote has not passed (on the service’s clock).',
    expired: 'Its expiry has passed: any acquirer may take it over.',
    'long-held': 'Held longer than the configured limit; its expiry has not passed.',
  },
  changes: { healthy: 'Every refresh pushes the expiry back.', expired: 'It stays until an acquirer takes it over.' },
  advice: {
    healthy: 'The holder is refreshing it. Clearing aborts its work at its next refresh.',
    expired: 'Yes: its holder stopped refreshing it.',
  },
};

function dynamoHealthWords(r: DynamoReading): HealthWords {
  if (r.format === 'terraform') return TERRAFORM;
  if (r.expiresAtMs !== undefined) return EXPIRING;
  return r.leaseMs !== undefined || r.released ? LEASE : FAIL_CLOSED;
}

export function dynamoTerms(r: DynamoReading): StoreTerms {
  const lease = r.leaseMs !== undefined || r.expiresAtMs !== undefined;
  return {
    storeLabel: 'DynamoDB',
    versionName: r.format === 'terraform' ? 'hash of the Info attribute' : 'hash of recordVersionNumber and owner',
    since: r.acquiredMs === undefined ? 'Seen since' : 'Held since',
    ...(lease ? { ttl: 'Lease' } : {}),
    liveness:
      r.format === 'terraform'
        ? 'Terraform’s lock item never expires: only its apply’s unlock, `terraform force-unlock` or an operator removes it.'
        : lease
          ? 'The holder heartbeats with a new recordVersionNumber within its lease; the same one seen unchanged for longer than the lease means its holder is gone.'
          : 'No lease: it stays until its owner or an operator removes it.',
    effect:
      r.format === 'terraform'
        ? 'Clearing deletes the lock item; a Terraform run still applying is not told and may write the state.'
        : 'Clearing deletes the item; its holder learns at its next heartbeat (its condition fails) and should stop.',
    rule: 'DynamoDB rule: one DeleteItem whose ConditionExpression pins exactly what was read (Terraform: the whole Info string; lock clients: recordVersionNumber and ownerName). DynamoDB refuses it if the item changed, so a successor or a heartbeat is never deleted.',
    trail: 'Force-releases are recorded in the lockboard-audit table before and after; other tools record nothing.',
    health: dynamoHealthWords(r),
  };
}
