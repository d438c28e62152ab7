// A forged force-release: with LOCKBOARD_AUDIT_KEY set, a record of an operator's act that does not carry the
// deployment's signature (a holder wrote it to the trail) is never announced as the operator's: the event says
// `verified: false`, names no actor (the name it gives is `claimedActor`), and Slack's text says it is unverified.
import { afterEach, describe, expect, it } from 'vitest';
import { setAuditKey, signAuditFields, trustAuditRecords } from '@/lib/lock/audit/trust';
import type { AuditRecord } from '@/lib/lock/audit/record';
import type { SourcedAuditRecord } from '@/lib/server/audit/trails';
import { renderBody, slackMessage } from '@/lib/server/notify/render';
import { eventOfRecord } from '@/lib/server/notify/trail-events';
import type { Source } from '@/lib/server/sources';

const source = { id: 'redis://cache:6379/0', prefix: '', bucketId: 'cache:6379/0', store: 'redis' } as Source;
const KEY = 'audit-key-0123456789abcdef0123456789';
const at = '2026-11-27T02:00:00.000Z';
const fields = { event: 'force-released', lock: 'deploy', operator: 'alice@example.com', reason: 'stuck', at };

/** One record as the trail gives it back, trusted with `key`, with its source named. */
function readBack(raw: Record<string, unknown>, key: string | undefined): SourcedAuditRecord {
  const [r] = trustAuditRecords([{ id: '1-0', ...raw } as unknown as AuditRecord], key);
  return { ...r!, bucket: source.bucketId, source: source.id };
}

afterEach(() => setAuditKey(undefined));

describe('a force-release record that a holder wrote', () => {
  it('is not told as the operator’s act when the deployment signs its records', () => {
    setAuditKey(KEY);
    const forged = eventOfRecord('t', readBack(fields, KEY), source, undefined)!;
    expect(forged).toMatchObject({ event: 'force-released', verified: false, actor: null });
    expect(forged.claimedActor).toBe('alice@example.com');
    const body = JSON.parse(renderBody('json', forged)) as Record<string, unknown>;
    expect(body).toMatchObject({ verified: false, actor: null, claimedActor: 'alice@example.com' });
    const slack = slackMessage(forged);
    expect(slack.text).toMatch(/^Unverified trail record/);
    const section = (slack.blocks[0] as { text: { text: string } }).text.text;
    expect(section).toMatch(/^\*Unverified trail record .*not an operator’s act\): lock force-released\*/);
    expect(section).not.toContain('*Who:*');
    expect(section).toContain('*Named in the record (unverified):* `alice@example.com`');
  });

  it('is told as the operator’s when signed with the key, and refusals alike', () => {
    setAuditKey(KEY);
    const signed = eventOfRecord('t', readBack(signAuditFields(fields, Date.parse(at)), KEY), source, undefined)!;
    expect(signed).toMatchObject({ verified: true, actor: 'alice@example.com' });
    expect(signed.claimedActor).toBeUndefined();
    expect(slackMessage(signed).text).toBe('Lock force-released: `redis://cache:6379/0/deploy`');
    const refused = { ...fields, event: 'force-release-refused', outcome: 'changed' };
    expect(eventOfRecord('t', readBack(refused, KEY), source, undefined)).toMatchObject({
      event: 'release-refused',
      verified: false,
      actor: null,
    });
  });

  it('cannot be told apart without a key: verified is null, as the README says', () => {
    const plain = eventOfRecord('t', readBack(fields, undefined), source, undefined, undefined)!;
    expect(plain).toMatchObject({ verified: null, actor: 'alice@example.com' });
  });
});
