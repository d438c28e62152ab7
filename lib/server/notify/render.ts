// The body a webhook receives: the event itself (`json`), or one short Slack message (`slack`: text for
// notifications and a section block with the lock, who, why, outcome and a link to its page).
import { createHmac } from 'node:crypto';
import type { NotifyEvent } from './event';

const TITLES: Record<NotifyEvent['event'], string> = {
  'force-released': 'Lock force-released',
  'release-refused': 'Force-release refused',
  'taken-over': 'Lock taken over',
  'deleted-outside': 'Lock deleted outside Lockboard',
  'holder-gone': 'Lock holder gone',
  test: 'Test message from Lockboard',
};

/** Slack mrkdwn text with its control characters escaped (&, <, >), so a lock's name cannot forge a link. */
const escapeSlack = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function slackMessage(e: NotifyEvent): { text: string; blocks: object[] } {
  const title = TITLES[e.event];
  const text = `${title}: ${e.lock.address}`;
  const lines = [
    `*${title}*: \`${escapeSlack(e.lock.address)}\``,
    e.actor ? `*Who:* ${escapeSlack(e.actor)}` : undefined,
    e.reason ? `*Why:* ${escapeSlack(e.reason)}` : undefined,
    e.outcome ? `*Outcome:* ${escapeSlack(e.outcome)}` : undefined,
    e.sentence ? `*Verdict:* ${escapeSlack(e.verdict ?? '')}: ${escapeSlack(e.sentence)}` : undefined,
    e.link ? `<${e.link}|Open the lock in Lockboard>` : undefined,
  ].filter((l): l is string => l !== undefined);
  const blocks: object[] = [
    { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n').slice(0, 3_000) } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: `${e.lock.store} · ${e.at} · event ${e.id}` }] },
  ];
  return { text: escapeSlack(text), blocks };
}

export function renderBody(format: 'slack' | 'json', e: NotifyEvent): string {
  return JSON.stringify(format === 'slack' ? slackMessage(e) : e);
}

/** `X-Lockboard-Signature`: `sha256=` and the hex HMAC-SHA256 of the exact body, with the webhook's secret. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
