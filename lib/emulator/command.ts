// `npm run emulator` / `lockboard emulator`: flags, start-up message, clean shutdown on SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { startEmulator } from './index';

const EMULATOR_HELP = `Usage: lockboard emulator [--port 4443] [--host 127.0.0.1] [--bucket NAME]... [--data-dir DIR] [--rate-limit]

Runs a Google Cloud Storage emulator: the JSON API subset Lockboard uses, and the XML API reads of
Google's Go client (Terraform, Vault).

Options:
  --port N        port to listen on (default 4443; 0 picks a free port)
  --host H        address to bind (default 127.0.0.1)
  --bucket NAME   create this bucket at start (repeatable; add ":versioned" to enable versioning)
  --data-dir DIR  keep state in DIR so it survives restarts (default: in memory)
  --rate-limit    enforce GCS's write-rate limit of about one write per second per object
  --s3-port N     also serve S3 (path style, any SigV4 credentials) on this port (0 picks a free one)
  --s3-bucket NAME  create this S3 bucket at start (repeatable; with --s3-port)
  --push-endpoint URL  deliver bucket notifications (bucket.createNotification) to URL as Pub/Sub pushes,
                  e.g. http://127.0.0.1:3000/api/gcs-events
  --push-token T  sent as ?token=T (the console's LOCKBOARD_PUSH_TOKEN)
  -h, --help      show this help

Environment:
  PUBSUB_EMULATOR_HOST  host:port of Google's Pub/Sub emulator (gcloud beta emulators pubsub start): every
                  notification is also published to the topic its config names, as GCS publishes it; a push
                  subscription on that topic then delivers it (to the console's /api/gcs-events, say)

Clients: new Storage({ apiEndpoint: 'http://127.0.0.1:4443', projectId: 'local' })
Control: GET/POST/DELETE /_emulator/faults, GET/DELETE /_emulator/requests

Example:
  npm run emulator -- --port 4443 --bucket locks-dev --data-dir .data/emulator`;

type EmulatorArgs = ReturnType<typeof parseEmulatorArgs>;

function parseEmulatorArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '4443' },
      host: { type: 'string', default: '127.0.0.1' },
      bucket: { type: 'string', multiple: true, default: [] },
      'data-dir': { type: 'string' },
      'rate-limit': { type: 'boolean', default: false },
      's3-port': { type: 'string' },
      's3-bucket': { type: 'string', multiple: true, default: [] },
      'push-endpoint': { type: 'string' },
      'push-token': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }).values;
}

const isPort = (n: number | undefined) => n !== undefined && Number.isInteger(n) && n >= 0 && n <= 65535;

/** The first problem with the options, as the message to print (exit 2), or null. */
function problemOf(values: EmulatorArgs, pubsub: string | undefined): string | null {
  if (!isPort(Number(values.port)))
    return `--port must be an integer from 0 to 65535, got ${JSON.stringify(values.port)}`;
  const pushEndpoint = values['push-endpoint'];
  if (pushEndpoint !== undefined && !/^https?:\/\/\S+$/.test(pushEndpoint))
    return `--push-endpoint must be an http(s) URL, got ${JSON.stringify(pushEndpoint)}`;
  if (values['s3-port'] !== undefined && !isPort(Number(values['s3-port'])))
    return `--s3-port must be an integer from 0 to 65535, got ${JSON.stringify(values['s3-port'])}`;
  if (values['s3-port'] === undefined && values['s3-bucket'].length)
    return '--s3-bucket needs --s3-port (the S3 side is off without it)';
  if (pubsub !== undefined && !/^[\w.-]+:\d{1,5}$|^\[[\da-f:]+\]:\d{1,5}$/i.test(pubsub))
    return `PUBSUB_EMULATOR_HOST must be host:port, got ${JSON.stringify(pubsub)}`;
  return null;
}

export async function runEmulatorCommand(argv: string[]): Promise<number> {
  let values: EmulatorArgs;
  try {
    values = parseEmulatorArgs(argv);
  } catch (err) {
    console.error(`lockboard emulator: ${(err as Error).message}\nRun with --help for the options.`);
    return 2;
  }
  if (values.help) {
    console.log(EMULATOR_HELP);
    return 0;
  }
  const pubsub = process.env.PUBSUB_EMULATOR_HOST || undefined;
  const problem = problemOf(values, pubsub);
  if (problem) {
    console.error(`lockboard emulator: ${problem}`);
    return 2;
  }
  return serveUntilSignal(values, pubsub);
}

/** Starts the emulator with the options given, says where it listens, and stops it on SIGINT or SIGTERM. */
async function serveUntilSignal(values: EmulatorArgs, pubsub: string | undefined): Promise<number> {
  const port = Number(values.port);
  const s3Port = values['s3-port'] === undefined ? undefined : Number(values['s3-port']);
  const pushEndpoint = values['push-endpoint'];
  const buckets = values.bucket.map((spec) => {
    const [name, flag] = spec.split(':');
    return { name: name!, versioning: flag === 'versioned' };
  });
  try {
    const emulator = await startEmulator({
      port,
      host: values.host,
      buckets,
      dataDir: values['data-dir'],
      faults: { rateLimit: { enabled: values['rate-limit'] } },
      ...(s3Port !== undefined ? { s3: { port: s3Port, buckets: values['s3-bucket'] } } : {}),
      ...(pushEndpoint || pubsub
        ? { push: { endpoint: pushEndpoint, token: values['push-token'], pubsubEmulatorHost: pubsub } }
        : {}),
    });
    console.log(
      `GCS emulator listening on ${emulator.url}` +
        (values['data-dir'] ? ` (data in ${values['data-dir']})` : ' (in memory)') +
        (pubsub ? `; notifications published to the Pub/Sub emulator at ${pubsub}` : '') +
        (emulator.s3 ? `\nS3 emulator listening on ${emulator.s3.url} (AWS_ENDPOINT_URL_S3=${emulator.s3.url})` : ''),
    );
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await emulator.close();
    return 0;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') console.error(`lockboard emulator: port ${port} is in use; pick another with --port`);
    else console.error(`lockboard emulator: ${e.message}`);
    return 1;
  }
}
