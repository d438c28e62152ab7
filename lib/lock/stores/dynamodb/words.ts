// DynamoDB's truth table, per format: a Terraform item never expires and is never refreshed (never called alive); a
// lock client's lease is judged by two observations a lease apart (a heartbeat writes a new recordVersionNumber);
// Lockboard's own item expires at the time it names, on the service's clock; a FailClosed item has no lease.
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

export function dynamoHealthWords(r: DynamoReading): HealthWords {
  if (r.format === 'terraform') return TERRAFORM;
  if (r.expiresAtMs !== undefined) return EXPIRING;
  return r.leaseMs !== undefined || r.released ? LEASE : FAIL_CLOSED;
}
