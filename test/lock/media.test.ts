// Lock bodies read by a plain GET (media.ts) where the official client sends its JSON API requests: the same URL
// and bytes as the client's download() against the emulator, the client's credentials where the client would send
// them (and none on an emulator endpoint, as the client does), a clear status for a missing generation, and a
// timeout that gives up instead of hanging a listing.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Storage } from '@google-cloud/storage';
import { OAuth2Client } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BucketObjects, GcsCallError } from '@/lib/lock/stores/gcs/client';
import { readMedia } from '@/lib/lock/stores/gcs/media';
import { startTestEmulator, type Target } from '../helpers/gcs';

let g: Target;
let server: Server;
let seen: IncomingHttpHeaders[] = [];
let serverUrl = '';
let answer = true;

beforeAll(async () => {
  g = await startTestEmulator({ buckets: [{ name: 'media', versioning: true }] }); // keeps the first generation
  server = createServer((req, res) => {
    seen.push(req.headers);
    if (answer) res.end(`bytes of ${decodeURIComponent(new URL(req.url!, 'http://x').pathname)}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await g.close();
});

describe('readMedia', () => {
  it('reads the same bytes as the official client, by generation', async () => {
    const file = g.storage.bucket('media').file('locks/a b#1.tflock');
    await file.save(Buffer.from([0, 1, 2, 250, 255, 10]), { resumable: false });
    const [first] = await file.getMetadata();
    await file.save('second', { resumable: false });
    const [official] = await g.storage
      .bucket('media')
      .file('locks/a b#1.tflock', { generation: Number(first.generation) })
      .download();
    const objects = new BucketObjects(g.storage, 'media');
    expect(await objects.download('locks/a b#1.tflock', String(first.generation))).toEqual(official);
    expect(official).toEqual(Buffer.from([0, 1, 2, 250, 255, 10]));
  });

  it('names a missing generation by its status', async () => {
    const objects = new BucketObjects(g.storage, 'media');
    const err = await objects.download('locks/never-written', '123').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GcsCallError);
    expect((err as GcsCallError).status).toBe(404);
  });

  it("sends the client's access token where the client authenticates, and none on an emulator endpoint", async () => {
    const authClient = new OAuth2Client();
    authClient.setCredentials({ access_token: 'token-for-test', expiry_date: Date.now() + 3_600_000 });
    const authed = new Storage({ apiEndpoint: serverUrl, projectId: 'p', authClient, useAuthWithCustomEndpoint: true });
    seen = [];
    const res = await readMedia(authed, 'b', 'locks/x', '7', 5_000);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('bytes of /storage/v1/b/b/o/locks/x');
    expect(seen[0]?.authorization).toBe('Bearer token-for-test');

    const emulated = new Storage({ apiEndpoint: serverUrl, projectId: 'p', authClient });
    seen = [];
    await readMedia(emulated, 'b', 'locks/x', '7', 5_000);
    expect(seen[0]?.authorization).toBeUndefined();
  });

  it('gives up after its timeout with status 0 and says so', async () => {
    answer = false;
    try {
      const storage = new Storage({ apiEndpoint: serverUrl, projectId: 'p' });
      const started = performance.now();
      const res = await readMedia(storage, 'b', 'locks/slow', '1', 300);
      expect(res.status).toBe(0);
      expect(res.body.toString()).toMatch(/timed out after 300 ms/);
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      answer = true;
    }
  });
});
