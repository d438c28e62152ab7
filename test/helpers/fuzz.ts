// Garbage requests for the fuzz tests: every body × target × content type, `repeat` times; 5xx answers collected.
export async function fuzzPosts(
  base: string,
  targets: string[],
  bodies: string[],
  headers: Record<string, string>,
  repeat: number,
): Promise<{ sent: number; fiveXx: string[] }> {
  const fiveXx: string[] = [];
  let sent = 0;
  for (const body of bodies) {
    for (const target of targets) {
      for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
        for (let i = 0; i < repeat; i++) {
          const r = await fetch(`${base}${target}`, {
            method: 'POST',
            headers: { ...headers, 'content-type': type },
            body,
            redirect: 'manual',
          });
          if (r.status >= 500) fiveXx.push(`POST ${target} ${type} ${body.slice(0, 40)} → ${r.status}`);
          await r.arrayBuffer();
          sent++;
        }
      }
    }
  }
  return { sent, fiveXx };
}

/** Values of every JSON type but the expected one, and text that would drive a terminal or hide in a page. */
export const WRONG_TYPED: unknown[] = [12345, { a: 1 }, ['x', { y: 1 }], true, null, -1.5e308];
export const HOSTILE_TEXT = [
  '\u001b[2J\u001b[HALL LOCKS HEALTHY',
  '\u001b]0;pwned\u0007title',
  '\u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007',
  'line\roverwritten',
  'deploy-prod\u200b',
  'evil\u202egnp.exe',
  '\u0085c1\u009bcontrol',
];

/**
 * Malformed versions of one well-formed lock body: each field in turn given every wrong type, and each text field
 * hostile text. `fields` are the body's fields; the result is [label, body] pairs (the label names what was changed).
 */
export function malformedBodies(
  good: Record<string, unknown>,
  textFields: string[],
): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = [];
  for (const key of Object.keys(good)) {
    if (key === 'format') continue;
    WRONG_TYPED.forEach((v, i) => out.push([`${key}#${i}`, { ...good, [key]: v }]));
  }
  for (const key of textFields) HOSTILE_TEXT.forEach((t, i) => out.push([`${key}~${i}`, { ...good, [key]: t }]));
  return out;
}

/** Whether every value that a listing shows as text is text (no object or number where a string belongs). */
export function textFieldsAreText(lock: Record<string, unknown>): string[] {
  const wrong: string[] = [];
  for (const k of ['name', 'identity', 'host', 'pid', 'purpose', 'note', 'formatLabel', 'version'])
    if (lock[k] !== undefined && typeof lock[k] !== 'string') wrong.push(k);
  for (const d of (lock.details as unknown[]) ?? [])
    if (!Array.isArray(d) || d.some((x) => typeof x !== 'string')) wrong.push(`details ${JSON.stringify(d)}`);
  return wrong;
}

/** Raw control, C1, bidi or zero-width characters: what no CLI text output may carry from a holder. */
export const RAW_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;
