// The console's one storage client: the configured endpoint (emulator) or Google Cloud Storage with ADC.
import 'server-only';
import { Storage } from '@google-cloud/storage';
import { env } from './env';

let client: Storage | undefined;
export function storage(): Storage {
  const endpoint = env().LOCKBOARD_GCS_ENDPOINT;
  client ??= endpoint
    ? new Storage({ apiEndpoint: endpoint.replace(/\/+$/, ''), projectId: 'lockboard' })
    : new Storage();
  return client;
}
