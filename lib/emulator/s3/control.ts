// The S3 emulator's control endpoints (/_emulator/faults, /requests, /health), as on the GCS side.
import type { IncomingMessage } from 'node:http';
import type { Faults } from '../testing/faults';
import { readBody } from '../json-api/http';
import type { S3ServerParts } from './server';

export async function controlRoute(
  method: string,
  path: string,
  req: IncomingMessage,
  parts: Pick<S3ServerParts, 'faults' | 'requests'>,
  json: (status: number, value: unknown) => void,
): Promise<void> {
  try {
    if (path === '/_emulator/faults') {
      const body = await readBody(req, 1024 * 1024);
      if (method === 'POST') {
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          return json(400, { error: 'The fault configuration is not JSON.' });
        }
        parts.faults.set(parsed as Parameters<Faults['set']>[0]);
      } else if (method === 'DELETE') parts.faults.clear();
      return json(200, parts.faults.toJSON());
    }
    if (path === '/_emulator/requests') {
      if (method === 'DELETE') parts.requests.clear();
      return json(200, { requests: parts.requests.entries });
    }
    if (path === '/_emulator/health') return json(200, { ok: true });
    return json(404, { error: `Unknown emulator control endpoint ${path}` });
  } catch (err) {
    return json(400, { error: (err as Error).message });
  }
}
