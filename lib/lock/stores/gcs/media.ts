// An object's bytes (`alt=media`) as one plain HTTP GET on the client's own endpoint, with the client's own
// credentials. The client's `download()` builds a stream pipeline per object, whose end aborts an AbortController
// (a DOMException with a stack each time): about half a millisecond of CPU per body, while a cold listing reads
// thousands of lock bodies of a few hundred bytes.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Storage } from '@google-cloud/storage';

const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

export interface MediaResponse {
  /** HTTP status; 0 for a timeout or a network error. */
  status: number;
  body: Buffer;
  /** The response's Date header (the server clock). */
  date?: string;
}

/** GET `…/b/BUCKET/o/NAME?alt=media&generation=G` where the client sends its JSON API requests. */
export async function readMedia(
  storage: Storage,
  bucket: string,
  name: string,
  generation: string,
  timeoutMs: number,
): Promise<MediaResponse> {
  const url = new URL(`${storage.baseUrl}/b/${encodeURIComponent(bucket)}/o/${encodeURIComponent(name)}`);
  url.search = `alt=media&generation=${encodeURIComponent(generation)}`;
  const headers = { 'user-agent': 'lockboard', ...(await authHeaders(storage, url.href)) };
  const https = url.protocol === 'https:';
  return new Promise((resolve) => {
    const failed = (message: string) => resolve({ status: 0, body: Buffer.from(message) });
    const req = (https ? httpsRequest : httpRequest)(
      url,
      { method: 'GET', headers, agent: https ? agents.https : agents.http },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), date: res.headers.date });
        });
        res.on('error', (err) => (clearTimeout(timer), failed(err.message)));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      failed(`GCS request timed out after ${timeoutMs} ms`);
    }, timeoutMs);
    req.on('error', (err) => (clearTimeout(timer), failed(err.message)));
    req.end();
  });
}

/**
 * What the client would authorise the request with: nothing on a custom endpoint (an emulator) unless it was told
 * to authenticate there (`useAuthWithCustomEndpoint`), as the client itself does; else its auth client's headers
 * (a cached access token).
 */
async function authHeaders(storage: Storage, url: string): Promise<Record<string, string>> {
  if (storage.customEndpoint && !storage.useAuthWithCustomEndpoint) return {};
  const headers: unknown = await storage.authClient.getRequestHeaders(url);
  // google-auth-library gives a plain object (v9) or a Fetch Headers (v10)
  return headers instanceof Headers ? Object.fromEntries(headers.entries()) : (headers as Record<string, string>);
}
