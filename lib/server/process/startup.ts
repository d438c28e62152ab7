// A bad configuration stops the console at start-up with a message naming the variable, not at the first request.
import { ConfigError, parseEnv } from '../env';
import { checkGrantsAtStart } from '../auth/grants-at-start';
import { AccessFileError } from '../auth/grants';
import { limitHeapGrowth } from './heap';
import { openWebhooksFile } from '../notify/config-file';
import { WebhooksConfigError } from '../notify/config';

try {
  const env = parseEnv(process.env);
  limitHeapGrowth(env.LOCKBOARD_HEAP_GROWTH);
  checkGrantsAtStart(env); // an unusable access file stops the console here, naming its line
  openWebhooksFile(env.LOCKBOARD_WEBHOOKS_FILE, process.env).stop(); // a malformed file stops the console here
} catch (err) {
  if (!(err instanceof ConfigError) && !(err instanceof WebhooksConfigError) && !(err instanceof AccessFileError))
    throw err;
  console.error(`\n${err.message}\n`);
  process.exit(1);
}

// Every configured source's store is opened now, in the background: its SDK loaded and its connection made before
// the first page asks (a cold console's first screen would otherwise wait for them). A source that cannot be opened
// yet is opened again on the first request that needs it. Each source's change feed is opened too (GCS: this
// replica's own pull subscription, with its expiry), so the first page to watch does not wait to subscribe.
void (async () => {
  const { sources } = await import('../sources');
  const { storeFor } = await import('../stores');
  const { prepareWatchers } = await import('../live/watch');
  const all = sources();
  for (const source of all) {
    storeFor(source).catch((err: unknown) =>
      console.warn(`[lockboard] ${source.id} cannot be opened yet: ${(err as Error).message}`),
    );
  }
  prepareWatchers(all);
  (await import('../notify')).startWebhooks();
})().catch(() => undefined);
