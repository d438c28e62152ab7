// The few GCS calls the protocol makes, through the official client, with our own timeouts and no client retries
// (the protocol decides what to retry), and every response's time fed to the server clock. Bodies are read by a
// plain GET with the client's endpoint and credentials (media.ts).
import { Storage, type Bucket, type File, type StorageOptions } from '@google-cloud/storage';
import { ServerClock } from '../../time';
import type { GcsObjectResource } from '../../types';
import { BucketNotFoundError, GcsCallError, mediaError, statusOf } from './errors';
import { readMedia } from './media';

import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../holding/options';

export { GcsCallError, isTransient, statusOf } from './errors';

interface Client {
  storage: Storage;
  clock: ServerClock;
  /** One Bucket object per bucket: the client builds ACL and IAM helpers for each, too costly per request. */
  buckets: Map<string, Bucket>;
}
const clients = new WeakMap<Storage, Client>();

/** A client sharing the caller's endpoint and credentials, with automatic retries off. */
function clientFor(storage: Storage): Client {
  let client = clients.get(storage);
  if (!client) {
    const derived = new Storage({
      apiEndpoint: storage.apiEndpoint,
      projectId: storage.projectId,
      authClient: storage.authClient as StorageOptions['authClient'],
      universeDomain: storage.universeDomain,
      useAuthWithCustomEndpoint: storage.useAuthWithCustomEndpoint,
      retryOptions: { autoRetry: false },
      timeout: 60_000,
    });
    client = { storage: derived, clock: new ServerClock(), buckets: new Map() };
    clients.set(storage, client);
  }
  return client;
}

export interface Preconditions {
  ifGenerationMatch: string | number;
  ifMetagenerationMatch?: string | number;
}

/** Lock and audit objects of one bucket. */
export class BucketObjects {
  readonly clock: ServerClock;
  private readonly handle: Bucket;
  private readonly storage: Storage;

  constructor(
    storage: Storage,
    readonly bucket: string,
  ) {
    const client = clientFor(storage);
    this.clock = client.clock;
    this.storage = client.storage;
    let handle = client.buckets.get(bucket);
    if (!handle) client.buckets.set(bucket, (handle = client.storage.bucket(bucket)));
    this.handle = handle;
  }

  /** Multipart upload with preconditions; resolves to the new object's resource. */
  async create(
    name: string,
    body: string,
    metadata: Record<string, string>,
    pre: Preconditions,
    timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  ): Promise<GcsObjectResource> {
    const file = this.file(name);
    const preconditionOpts = {
      ifGenerationMatch: Number(pre.ifGenerationMatch),
      ...(pre.ifMetagenerationMatch !== undefined ? { ifMetagenerationMatch: Number(pre.ifMetagenerationMatch) } : {}),
    };
    await this.call(
      file.save(body, {
        resumable: false,
        validation: false,
        metadata: { contentType: 'application/json', cacheControl: 'no-store', metadata },
        preconditionOpts,
      }),
      timeoutMs,
    );
    const resource = file.metadata as unknown as GcsObjectResource;
    this.clock.observeStamp(resource.updated);
    return resource;
  }

  /** Object metadata, or null when there is no live object. */
  async get(name: string, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<GcsObjectResource | null> {
    try {
      return await this.request<GcsObjectResource>(this.file(name), { method: 'GET', uri: '' }, timeoutMs);
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw err;
    }
  }

  /** One generation's bytes, by a plain GET on the client's endpoint with its credentials (media.ts). */
  async download(name: string, generation: string, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<Buffer> {
    const res = await readMedia(this.storage, this.bucket, name, generation, timeoutMs);
    this.clock.observeDateHeader(res.date);
    if (res.status >= 200 && res.status < 300) return res.body;
    throw new GcsCallError(res.status, mediaError(res));
  }

  /** Custom-metadata PATCH (a refresh or an adoption), with both preconditions. */
  patchMetadata(
    name: string,
    metadata: Record<string, string | null>,
    pre: Required<Preconditions>,
    timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  ): Promise<GcsObjectResource> {
    return this.patchFields(name, { metadata }, pre, timeoutMs);
  }

  /** PATCH of object fields (custom metadata, `temporaryHold`, ...), with both preconditions. */
  patchFields(
    name: string,
    fields: Record<string, unknown>,
    pre: Required<Preconditions>,
    timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  ): Promise<GcsObjectResource> {
    const qs = {
      ifGenerationMatch: String(pre.ifGenerationMatch),
      ifMetagenerationMatch: String(pre.ifMetagenerationMatch),
    };
    return this.request(this.file(name), { method: 'PATCH', uri: '', qs, json: fields }, timeoutMs);
  }

  async delete(name: string, pre: Preconditions, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<void> {
    const qs: Record<string, string> = { ifGenerationMatch: String(pre.ifGenerationMatch) };
    if (pre.ifMetagenerationMatch !== undefined) qs.ifMetagenerationMatch = String(pre.ifMetagenerationMatch);
    await this.request(this.file(name), { method: 'DELETE', uri: '', qs }, timeoutMs);
  }

  /** One `objects.list` page with a field projection. */
  list(
    qs: {
      prefix: string;
      pageToken?: string;
      maxResults?: number;
      fields: string;
      startOffset?: string;
      endOffset?: string;
    },
    timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  ): Promise<{ items?: GcsObjectResource[]; nextPageToken?: string }> {
    const query = Object.fromEntries(Object.entries(qs).filter(([, v]) => v !== undefined));
    return this.request(this.handle, { method: 'GET', uri: '/o', qs: query }, timeoutMs);
  }

  private file(name: string): File {
    return this.handle.file(name);
  }

  private request<T>(
    target: { request: File['request'] },
    reqOpts: { method: string; uri: string; qs?: Record<string, unknown>; json?: unknown },
    timeoutMs: number,
  ): Promise<T> {
    const pending = new Promise<T>((resolve, reject) => {
      target.request(reqOpts as never, (err, body, res) => {
        const headers =
          (err as { response?: { headers?: Record<string, string> } } | null)?.response?.headers ?? res?.headers;
        this.clock.observeDateHeader(headers?.date);
        if (err) reject(err);
        else resolve(body as T);
      });
    });
    return this.call(pending, timeoutMs);
  }

  /** Races a client call against our timeout and maps failures to GcsCallError. */
  private call<T>(pending: Promise<T>, timeoutMs: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new GcsCallError(0, `GCS request timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    const mapped = pending.catch((err: unknown) => {
      const code = (err as { code?: unknown }).code;
      const status = typeof code === 'number' && code >= 100 ? code : 0;
      const message = (err as Error).message ?? String(err);
      if (status === 404 && /bucket does not exist/i.test(message)) throw new BucketNotFoundError(this.bucket, message);
      throw new GcsCallError(status, message);
    });
    mapped.catch(() => {});
    return Promise.race([mapped, timeout]).finally(() => clearTimeout(timer));
  }
}
