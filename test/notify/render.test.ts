// Message bodies, signatures, the retry decisions and the address globs, without a network.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { retryAfter } from '@/lib/server/notify/attempt';
import type { NotifyEvent } from '@/lib/server/notify/event';
import { lockAddress as notifyLockAddress } from '@/lib/lock/address';
import { someGlobMatches as notifyGlobsMatch } from '@/lib/server/auth/glob';
import { renderBody, signBody, slackMessage } from '@/lib/server/notify/render';
import { decide, DEFAULT_RETRY } from '@/lib/server/notify/retry';
import { eventOfRecord } from '@/lib/server/notify/trail-events';
import type { SourcedAuditRecord } from '@/lib/server/audit/trails';
import type { Source } from '@/lib/server/sources';

// Slack's incoming-webhook payload as Block Kit documents it: text (the notification), up to 50 blocks; a section's
// text at most 3 000 characters; a context of 1–10 text elements
const textObject = z.object({ type: z.enum(['mrkdwn', 'plain_text']), text: z.string().min(1).max(3_000) }).strict();
const slackSchema = z
  .object({
    text: z.string().min(1).max(40_000),
    blocks: z
      .array(
        z.discriminatedUnion('type', [
          z.object({ type: z.literal('section'), text: textObject }).strict(),
          z.object({ type: z.literal('context'), elements: z.array(textObject).min(1).max(10) }).strict(),
        ]),
      )
      .max(50),
  })
  .strict();

const event: NotifyEvent = {
  id: '0123456789abcdef0123456789abcdef',
  event: 'force-released',
  at: '2026-11-27T02:00:00.000Z',
  lock: {
    address: 'gs://tf-state/envs/prod.tflock',
    source: 'gs://tf-state/',
    name: 'envs/prod.tflock',
    store: 'gcs',
    format: 'terraform',
  },
  actor: 'ops@example.com',
  reason: 'apply <killed> & stuck',
  outcome: 'released',
  verdict: null,
  sentence: null,
  link: 'https://lockboard.example/locks/envs/prod.tflock?bucket=tf-state',
  verified: null,
};

describe('message bodies', () => {
  it('renders Slack text and blocks that a Slack-shaped schema accepts, escaping the lock’s own words', () => {
    const message = slackMessage(event);
    expect(slackSchema.safeParse(message).success).toBe(true);
    const section = (message.blocks[0] as { text: { text: string } }).text.text;
    expect(section).toContain('*Why:* `apply &lt;killed&gt; &amp; stuck`');
    expect(section).toContain(
      '<https://lockboard.example/locks/envs/prod.tflock?bucket=tf-state|Open the lock in Lockboard>',
    );
    expect(message.text).toBe('Lock force-released: `gs://tf-state/envs/prod.tflock`');
  });

  it('sends the event itself as JSON, signed with HMAC-SHA256 of the exact body', () => {
    const body = renderBody('json', event);
    expect(JSON.parse(body)).toEqual(event);
    expect(signBody('s3cret', body)).toBe(`sha256=${createHmac('sha256', 's3cret').update(body).digest('hex')}`);
  });
});

describe('retries', () => {
  const p = { ...DEFAULT_RETRY, baseDelayMs: 1_000 };
  it('retries 5xx, 429 and network errors with growing delays, honouring Retry-After', () => {
    expect(decide({ status: 500 }, 1, 0, 0, p)).toEqual({ retryInMs: 1_000 });
    expect(decide({ status: 502 }, 3, 0, 0, p)).toEqual({ retryInMs: 4_000 });
    expect(decide({ error: 'timeout' }, 2, 0, 0, p)).toEqual({ retryInMs: 2_000 });
    expect(decide({ status: 429, retryAfterMs: 30_000 }, 1, 0, 0, p)).toEqual({ retryInMs: 30_000 });
    expect(decide({ status: 503 }, 20, 0, 0, p)).toEqual({ retryInMs: 300_000 });
  });
  it('gives up after an hour and never retries another 4xx or a redirect', () => {
    expect(decide({ status: 500 }, 9, 0, 3_500_000, p)).toEqual({ outcome: 'given-up' });
    expect(decide({ status: 400 }, 1, 0, 0, p)).toEqual({ outcome: 'failed' });
    expect(decide({ status: 302, error: 'redirected' }, 1, 0, 0, p)).toEqual({ outcome: 'failed' });
    expect(decide({ status: 204 }, 1, 0, 0, p)).toEqual({ outcome: 'delivered' });
  });
  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfter('120')).toBe(120_000);
    expect(retryAfter('Fri, 27 Nov 2026 02:01:00 GMT', Date.parse('2026-11-27T02:00:00Z'))).toBe(60_000);
    expect(retryAfter('soon')).toBeUndefined();
  });
});

describe('lock addresses and globs', () => {
  it('names a lock by its store, container and name', () => {
    expect(notifyLockAddress({ id: 'gs://tf-state/envs/', prefix: 'envs/' }, 'envs/prod.tflock')).toBe(
      'gs://tf-state/envs/prod.tflock',
    );
    expect(notifyLockAddress({ id: 'redis://cache:6379/0?match=lock*', prefix: '' }, 'lock:deploy')).toBe(
      'redis://cache:6379/0/lock:deploy',
    );
  });
  it('matches * across segments, ? as one character, and every lock without globs', () => {
    expect(notifyGlobsMatch(['gs://tf-state/*'], 'gs://tf-state/envs/prod.tflock')).toBe(true);
    expect(notifyGlobsMatch(['gs://tf-state/env?/*'], 'gs://tf-state/envs/prod.tflock')).toBe(true);
    expect(notifyGlobsMatch(['gs://tf-state/*'], 'gs://tf-statex/a')).toBe(false);
    expect(notifyGlobsMatch(['s3://a.b/*'], 's3://axb/c')).toBe(false);
    expect(notifyGlobsMatch(undefined, 'anything')).toBe(true);
  });
});

describe('events from trail records', () => {
  const source = { id: 'gs://tf-state/', prefix: '', bucketId: 'tf-state', store: 'gcs' } as Source;
  const record = (fields: Partial<SourcedAuditRecord>): SourcedAuditRecord =>
    ({
      id: 'a/1.json',
      at: '2026-11-27T02:00:00.000Z',
      lock: 'envs/prod.tflock',
      bucket: 'tf-state',
      source: 'gs://tf-state/',
      ...fields,
    }) as SourcedAuditRecord;

  it('tells refused releases and outside deletions, with a stable id per trail and record', () => {
    const refused = eventOfRecord(
      'tf-state',
      record({ event: 'force-release-refused', outcome: 'changed', operator: 'ops@example.com', reason: 'stuck' }),
      source,
      undefined,
    )!;
    expect(refused).toMatchObject({
      event: 'release-refused',
      outcome: 'changed',
      actor: 'ops@example.com',
      reason: 'stuck',
      link: null,
    });
    expect(eventOfRecord('tf-state', record({ event: 'force-release-refused' }), source, undefined)!.id).toBe(
      refused.id,
    );
    expect(eventOfRecord('other-trail', record({ event: 'force-release-refused' }), source, undefined)!.id).not.toBe(
      refused.id,
    );
    const deleted = eventOfRecord(
      'tf-state',
      record({ event: 'deleted-outside', format: 'lockboard' }),
      source,
      'https://l.example/',
    )!;
    expect(deleted).toMatchObject({
      event: 'deleted-outside',
      actor: null,
      lock: { address: 'gs://tf-state/envs/prod.tflock', format: 'lockboard' },
    });
    expect(deleted.link).toBe('https://l.example/locks/envs/prod.tflock?bucket=tf-state');
  });

  it('tells nothing of ordinary acquires and releases', () => {
    for (const event of ['acquired', 'released', 'force-release-requested', 'observed-created'] as const)
      expect(eventOfRecord('tf-state', record({ event }), source, undefined)).toBeUndefined();
  });
});
