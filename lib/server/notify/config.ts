// The webhooks file (LOCKBOARD_WEBHOOKS_FILE, JSON or YAML): one zod schema, each problem named with its file, line
// and field, in lib/server/env.ts's words ("webhooks[0].url (line 3) must be an https URL").
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { z } from 'zod';
import { parseDurationMs } from '@/lib/text/format';

const NOTIFY_EVENTS = [
  'force-released',
  'release-refused',
  'taken-over',
  'deleted-outside',
  'holder-gone',
  'hold-placed',
  'hold-ended',
  'hold-expired',
] as const;
export type NotifyEventKind = (typeof NOTIFY_EVENTS)[number];

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const url = z.url({ protocol: /^https?$/, error: 'must be an https URL' }).refine((raw) => {
  const u = new URL(raw);
  return u.protocol === 'https:' || LOOPBACK.has(u.hostname);
}, 'must be an https URL (http only for 127.0.0.1 or localhost)');

const webhookSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'must be letters, digits, ".", "_" or "-" (64 at most)'),
    url,
    format: z.enum(['slack', 'json'], { error: 'must be slack or json' }).default('json'),
    secret_env: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, 'must name an environment variable, e.g. LOCKBOARD_WEBHOOK_SECRET')
      .optional(),
    events: z
      .array(z.enum(NOTIFY_EVENTS, { error: `must be one of ${NOTIFY_EVENTS.join(', ')}` }))
      .min(1, 'must list at least one event')
      .default([...NOTIFY_EVENTS]),
    locks: z.array(z.string().min(1, 'must not be empty')).optional(),
    after: z
      .string()
      .refine((raw) => parseDurationMs(raw) !== null, 'must be a duration like 10m or 1h')
      .transform((raw) => parseDurationMs(raw)!)
      .default(600_000),
  })
  .strict();

const fileShape = z.object({ webhooks: z.array(webhookSchema) }).strict();
const fileSchema = fileShape.superRefine((file, ctx) => {
  const names = file.webhooks.map((w) => w.name);
  names.forEach((n, i) => {
    if (names.indexOf(n) !== i)
      ctx.addIssue({ code: 'custom', path: ['webhooks', i, 'name'], message: `${n} is named twice` });
  });
});

type WebhookRule = z.infer<typeof webhookSchema>;
/** A webhook as the notifier uses it: its rule and its secret read from the environment. */
export type Webhook = WebhookRule & { secret?: string };
export interface WebhooksConfig {
  webhooks: Webhook[];
}

export class WebhooksConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhooksConfigError';
  }
}

/** Parses the file's text (JSON is YAML too), every problem named with its line; secrets read from `env`. */
export function parseWebhooksConfig(
  file: string,
  text: string,
  env: Record<string, string | undefined>,
): WebhooksConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const lineOf = (offset: number | undefined) => (offset === undefined ? 1 : lines.linePos(offset).line);
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw new WebhooksConfigError(`${file}:${lineOf(e.pos[0])}: ${e.message.split('\n')[0]}`);
  }
  const parsed = fileSchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.flatMap((issue) => {
      // an unknown field is named where it is, with the fields there are
      const named =
        issue.code === 'unrecognized_keys'
          ? issue.keys.map((k) => ({ path: [...issue.path, k], message: `is not a field (${fieldsAt(issue.path)})` }))
          : [{ path: issue.path, message: issue.message }];
      return named.map(({ path, message }) => {
        const line = lineOf(nodeAt(doc.contents, path)?.range?.[0]);
        return `${file}:${line}: ${pathText(path)} ${message}`;
      });
    });
    throw new WebhooksConfigError(problems.join('\n'));
  }
  const webhooks = parsed.data.webhooks.map((w, i) => {
    if (!w.secret_env) return w;
    const secret = env[w.secret_env];
    if (!secret) {
      const line = lineOf(nodeAt(doc.contents, ['webhooks', i, 'secret_env'])?.range?.[0]);
      throw new WebhooksConfigError(
        `${file}:${line}: webhooks[${i}].secret_env names ${w.secret_env}, which is not set`,
      );
    }
    return { ...w, secret };
  });
  return { webhooks };
}

/** The deepest node of the document on `path` (for its line). */
function nodeAt(node: unknown, path: readonly PropertyKey[]): Node | undefined {
  let at = node as Node | undefined;
  for (const key of path) {
    let next: unknown;
    if (isMap(at)) next = at.get(key as string, true);
    else if (isSeq(at)) next = at.get(Number(key), true);
    if (!next) return at;
    at = next as Node;
  }
  return at;
}

const fieldsAt = (path: readonly PropertyKey[]): string =>
  Object.keys(path.length === 0 ? fileShape.shape : webhookSchema.shape).join(', ');

const pathText = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), '') ||
  'the file';
