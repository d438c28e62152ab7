// Holders' text shown, never obeyed (#39 item 4): the CLI's escapes and the console's marked, isolated SafeText.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SafeText } from '@/components/ui/safe-text';
import { escapeText, hasUnsafeText } from '@/lib/text/safe-text';

describe('escapeText', () => {
  it('shows control, C1, bidi and zero-width characters as visible escapes', () => {
    expect(escapeText('\u001b[2J\u001b]0;t\u0007x\ry')).toBe('\\x1b[2J\\x1b]0;t\\x07x\\x0dy');
    expect(escapeText('\u009bc1 deploy-prod\u200b evil\u202egnp')).toBe(
      '\\x9bc1 deploy-prod\\u{200b} evil\\u{202e}gnp',
    );
    expect(escapeText('a\nb', { keepNewlines: true })).toBe('a\nb');
    expect(escapeText('a\nb')).toBe('a\\x0ab');
  });

  it('leaves ordinary text of any script alone', () => {
    for (const text of ['deploy-prod', 'déploiement ☃ 🔒', 'נעילה', '部署'])
      expect([escapeText(text), hasUnsafeText(text)]).toEqual([text, false]);
  });
});

describe('SafeText', () => {
  it('isolates the text in <bdi> and marks each hidden character with its code point', () => {
    const html = renderToStaticMarkup(createElement(SafeText, { text: 'deploy-prod\u200b' }));
    expect(html).toMatch(
      /^<bdi title="Contains 1 hidden or control character, shown escaped">deploy-prod<mark data-unsafe-char="U\+200B"[^>]*>\\u\{200b\}<\/mark><\/bdi>$/,
    );
    expect(renderToStaticMarkup(createElement(SafeText, { text: 'plain' }))).toBe('<bdi>plain</bdi>');
  });
});
