// The body a webhook receives: the event itself (`json`), or one short Slack message (`slack`: text for
// notifications and a section block with the lock, who, why, outcome and a link to its page). Whatever a holder
// wrote is shown in code spans it cannot leave (slack-text.ts); an unverified record says so first.
import { createHmac } from 'node:crypto';
import type { NotifyEvent } from './event';
import { escapeSlack, slackCode } from './slack-text';

const TITLES: Record<NotifyEvent['event'], string> = {
  'force-released': 'Lock force-released',
  'release-refused': 'Force-release refused',
  'taken-over': 'Lock taken over',
  'deleted-outside': 'Lock deleted outside Lockboard',
  'holder-gone': 'Lock holder gone',
  'hold-placed': 'Lock held on purpose',
  'hold-ended': 'Hold ended',
  'hold-expired': 'Hold past its end',
  test: 'Test message from Lockboard',
};

const UNVERIFIED = 'Unverified trail record (not signed with the audit key, so not an operator’s act)';

export function slackMessage(e: NotifyEvent): { text: string; blocks: object[] } {
  const title = e.verified === false ? `${UNVERIFIED}: ${TITLES[e.event].toLowerCase()}` : TITLES[e.event];
  const who = e.claimedActor ? `*Named in the record (unverified):* ${slackCode(e.claimedActor)}` : undefined;
  const lines = [
    `*${title}*: ${slackCode(e.lock.address)}`,
    e.actor ? `*Who:* ${slackCode(e.actor)}` : who,
    e.reason ? `*Why:* ${slackCode(e.reason)}` : undefined,
    e.until ? `*Until:* ${slackCode(e.until)}` : undefined,
    e.outcome ? `*Outcome:* ${slackCode(e.outcome)}` : undefined,
    e.sentence ? `*Verdict:* ${escapeSlack(e.verdict ?? '')}: ${slackCode(e.sentence)}` : undefined,
    e.link && e.link.length <= 1_000 ? `<${escapeSlack(e.link)}|Open the lock in Lockboard>` : undefined,
  ].filter((l): l is string => l !== undefined);
  const blocks: object[] = [
    { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: escapeSlack(`${e.lock.store} · ${e.at} · event ${e.id}`) }],
    },
  ];
  return { text: `${title}: ${slackCode(e.lock.address)}`, blocks };
}

export function renderBody(format: 'slack' | 'json', e: NotifyEvent): string {
  return JSON.stringify(format === 'slack' ? slackMessage(e) : e);
}

/** `X-Lockboard-Signature`: `sha256=` and the hex HMAC-SHA256 of the exact body, with the webhook's secret. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
