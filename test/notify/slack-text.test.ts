// Slack text a holder cannot break out of: every character a holder may choose, alone and in random strings, stays
// inside its one code span (no second backtick, no raw `<`, `>` or `&` other than Slack's escapes, no line break), so
// a lock's name, identity or reason gets no formatting, no live link and no mention.
import { describe, expect, it } from 'vitest';
import { slackMessage } from '@/lib/server/notify/render';
import { slackCode } from '@/lib/server/notify/slack-text';
import type { NotifyEvent } from '@/lib/server/notify/event';

/** True when `text` is exactly one inline code span whose inside Slack reads as plain characters. */
function oneSpan(text: string): boolean {
  if (!text.startsWith('`') || !text.endsWith('`') || text.length < 3) return false;
  const inside = text.slice(1, -1);
  return (
    !inside.includes('`') &&
    !/[\n\r\u2028\u2029]/.test(inside) &&
    !/[<>]/.test(inside) &&
    !/&(?!amp;|lt;|gt;)/.test(inside) &&
    inside.trim() !== ''
  );
}

const HOSTILE = [
  '`',
  '``',
  '```',
  '*',
  '_',
  '~',
  '>',
  '<',
  '&',
  '|',
  '\n',
  '\r',
  '\u2028',
  '\u2029',
  '\t',
  '\u0000',
  '\u200b',
  '\u202e',
  ':',
  '!',
];

describe('holder text in Slack', () => {
  it('keeps each hostile character inside its code span', () => {
    for (const c of HOSTILE) expect(oneSpan(slackCode(`a${c}b`)), JSON.stringify(c)).toBe(true);
    expect(slackCode('x`*bold*` <!channel> <https://evil.example|click> &amp;')).toBe(
      '`xˋ*bold*ˋ &lt;!channel&gt; &lt;https://evil.example|click&gt; &amp;amp;`',
    );
    expect(slackCode('')).toBe('`(blank)`');
    expect(slackCode('\n\n')).toBe('`(blank)`');
  });

  it('keeps every random string of code points inside one span, and its length bounded', () => {
    let seed = 57;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pool = [...HOSTILE, 'a', 'é', '😀', ' ', '\u00ad', '\ufeff', '\u0085'];
    for (let n = 0; n < 5_000; n++) {
      const s = Array.from({ length: 1 + Math.floor(rand() * 40) }, () =>
        rand() < 0.7 ? pool[Math.floor(rand() * pool.length)] : String.fromCodePoint(Math.floor(rand() * 0x3000)),
      ).join('');
      const span = slackCode(s);
      expect(oneSpan(span), JSON.stringify(s)).toBe(true);
      expect(slackCode(s.repeat(200)).length).toBeLessThanOrEqual(453);
    }
  });

  it('puts every holder-chosen field of a message in its own span, each line intact', () => {
    const evil = 'deploy`*x*`\n*Who:* <!here> https://evil.example';
    const e: NotifyEvent = {
      id: 'id',
      event: 'holder-gone',
      at: '2026-11-27T02:00:00.000Z',
      lock: { address: `redis://c/${evil}`, source: 's', name: evil, store: 'redis', format: null },
      actor: evil,
      reason: evil,
      outcome: evil,
      verdict: 'gone',
      sentence: evil,
      link: 'https://lockboard.example/locks/deploy%60%0A',
      verified: null,
    };
    const m = slackMessage(e);
    const lines = (m.blocks[0] as { text: { text: string } }).text.text.split('\n');
    expect(lines.map((l) => l.replace(/^\*[^*]+\*:? ?(gone: )?/, ''))).toSatisfy((rest: string[]) =>
      rest.slice(0, 5).every(oneSpan),
    );
    expect(lines).toHaveLength(6);
    expect(m.text.split('`')).toHaveLength(3);
  });
});
