// The lock page's queue, rendered as the server renders it: the waiters in grant order with their keys and versions,
// the rule that none is ever released, and on a waiter's own page the reason in place of the release button.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LockWaiters, WAITER_RULE, WaiterNotReleased } from '@/components/lock/lock-waiters';

const now = Date.parse('2026-11-25T10:00:00Z');
const waiters = [
  {
    identity: 'lease 2040a20ab9857908',
    key: 'jobs/deploy/2040a20ab9857908',
    version: '3',
    since: '2026-11-25T09:58:00Z',
  },
  {
    identity: 'lease 2040a20ab985790c',
    key: 'jobs/deploy/2040a20ab985790c',
    version: '4',
    since: '2026-11-25T09:59:30Z',
  },
];

describe('the lock page’s waiters', () => {
  it('lists the waiters in grant order and says none is ever released', () => {
    const html = renderToStaticMarkup(
      createElement(LockWaiters, { lock: { waiters, bucket: 'etcd://h:2379/jobs/' }, serverNow: now }),
    );
    expect(html).toContain('Waiters (2)');
    expect(html.indexOf('2040a20ab9857908')).toBeLessThan(html.indexOf('2040a20ab985790c'));
    expect(html).toContain('version 3 · seen 2m 00s ago');
    expect(html).toContain('href="/locks/jobs/deploy/2040a20ab9857908?bucket=etcd%3A%2F%2Fh%3A2379%2Fjobs%2F"');
    expect(html).toContain(WAITER_RULE.replace(/’/g, '&#x27;').slice(0, 40));
  });

  it('shows nothing for a store that queues no one, and "nobody" for an empty queue', () => {
    expect(renderToStaticMarkup(createElement(LockWaiters, { lock: {}, serverNow: now }))).toBe('');
    expect(renderToStaticMarkup(createElement(LockWaiters, { lock: { waiters: [] }, serverNow: now }))).toContain(
      'Nobody is queued',
    );
  });

  it('on a waiter’s own page, says why it is never released and what to release instead', () => {
    const html = renderToStaticMarkup(createElement(WaiterNotReleased, { lock: { queuedFor: 'jobs/deploy' } }));
    expect(html).toMatch(/A waiter, not the holder/);
    expect(html).toContain('release the holder of');
    expect(html).toContain('jobs/deploy');
    expect(renderToStaticMarkup(createElement(WaiterNotReleased, { lock: {} }))).toBe('');
  });
});
