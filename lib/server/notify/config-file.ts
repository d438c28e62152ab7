// LOCKBOARD_WEBHOOKS_FILE read at start (a malformed file stops the console, naming its file and line) and again
// whenever it changes; a change that does not parse is refused, logged, and the last good configuration kept.
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { parseWebhooksConfig, WebhooksConfigError, type WebhooksConfig } from './config';
import { plural } from '@/lib/text/plural';

const NONE: WebhooksConfig = { webhooks: [] };

export interface WebhooksFile {
  current(): WebhooksConfig;
  /** The last refused reload's message, until a good one replaces it. */
  refused(): string | undefined;
  stop(): void;
}

/** Reads `file` now (throws WebhooksConfigError when it is missing or malformed) and follows its changes. */
export function openWebhooksFile(
  file: string | undefined,
  env: Record<string, string | undefined>,
  o: { intervalMs?: number; log?: (line: string) => void } = {},
): WebhooksFile {
  if (!file) return { current: () => NONE, refused: () => undefined, stop: () => undefined };
  const log = o.log ?? ((line: string) => console.warn(line));
  let good = readConfig(file, env);
  let refusal: string | undefined;
  const reload = () => {
    try {
      good = readConfig(file, env);
      refusal = undefined;
      log(`[lockboard] ${file} reloaded: ${plural('webhook', good.webhooks.length)}`);
    } catch (err) {
      refusal = (err as Error).message;
      log(`[lockboard] ${file} refused, keeping the last good webhooks: ${refusal}`);
    }
  };
  watchFile(file, { interval: o.intervalMs ?? 2_000, persistent: false }, (now, before) => {
    if (now.mtimeMs !== before.mtimeMs || now.size !== before.size) reload();
  });
  return { current: () => good, refused: () => refusal, stop: () => unwatchFile(file) };
}

function readConfig(file: string, env: Record<string, string | undefined>): WebhooksConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new WebhooksConfigError(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
  return parseWebhooksConfig(file, text, env);
}
