// Text a holder chose (a lock's name, an identity, a reason) inside Slack mrkdwn, with no way out: each piece is one
// inline code span (no bold, italics, strike or auto-linked URLs inside it), with the characters that could end it or
// act before mrkdwn is parsed replaced: `&`, `<`, `>` escaped as Slack asks (no `<!channel>`, no `<url|label>`), a
// backtick (which would close the span; mrkdwn has no escape for it) shown as the look-alike ˋ (U+02CB), and line
// breaks and other control or format characters (which end a span, or hide text) shown as a space.
const CONTROL =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;

/** Slack's own escaping for any text it shows: `&`, `<` and `>`. */
export const escapeSlack = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One inline code span holding `s` as it reads, whatever its characters; at most `max` characters once escaped. */
export function slackCode(s: string, max = 450): string {
  const flat = s.replace(CONTROL, ' ').replace(/`/g, '\u02cb');
  let out = '';
  for (const ch of flat) {
    const e = escapeSlack(ch);
    if (out.length + e.length > max) {
      out += '…';
      break;
    }
    out += e;
  }
  // an empty or blank span is not one in Slack: a visible placeholder keeps the line's shape
  return `\`${out.trim() === '' ? '(blank)' : out}\``;
}
