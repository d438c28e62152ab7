// The one place the S3 store talks to S3 (@aws-sdk/client-s3, the caller's client): conditional PUT and DELETE on the
// ETag, GET, ListObjectsV2, and the server's clock from each response's Date header (S3 stamps LastModified itself,
// so staleness is judged on S3's time, never the caller's). The caller's client is never modified: the Date is read
// by a middleware on each command.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';

export interface S3Body {
  key: string;
  etag: string;
  lastModifiedMs: number;
  body: Buffer;
  metadata: Record<string, string>;
}

export interface S3Listed {
  key: string;
  etag: string;
  lastModifiedMs: number;
  size: number;
}

/** 412 (a precondition failed), 404 (no such key), 409 (a racing conditional write), or undefined. */
export function s3Status(err: unknown): number | undefined {
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return typeof status === 'number' ? status : undefined;
}

export class S3Objects {
  /** Server time minus local time, from the newest response's Date header (second precision). */
  private offsetMs = 0;
  private bounds: [number, number] = [-Infinity, Infinity];
  requests = 0;

  constructor(
    readonly client: S3Client,
    readonly bucket: string,
  ) {}

  now(): number {
    return Date.now() + this.offsetMs;
  }

  private async send<T>(command: {
    middlewareStack: { add: (mw: never, opts: { step: 'deserialize'; name: string }) => void };
  }): Promise<T> {
    const sentAt = Date.now();
    const middleware = ((next: (args: unknown) => Promise<{ response: { headers?: Record<string, string> } }>) =>
      async (args: unknown) => {
        const result = await next(args);
        this.observeDate(result.response?.headers?.date, sentAt);
        return result;
      }) as never;
    command.middlewareStack.add(middleware, { step: 'deserialize', name: 'lockboardServerDate' });
    this.requests++;
    try {
      return (await this.client.send(command as never)) as T;
    } catch (err) {
      const headers = (err as { $response?: { headers?: Record<string, string> } }).$response?.headers;
      this.observeDate(headers?.date, sentAt);
      throw err;
    }
  }

  /**
   * The Date header has whole seconds: each response says the offset lies in [Date − received, Date + 1 s − sent].
   * Intersecting those intervals narrows the estimate to tens of milliseconds after a few requests; an interval
   * that contradicts the others (the server's clock was stepped) starts the estimate again.
   */
  private observeDate(date: string | undefined, sentAt: number): void {
    const server = date ? Date.parse(date) : NaN;
    if (!Number.isFinite(server)) return;
    const lo = server - Date.now();
    const hi = server + 1000 - sentAt;
    if (lo > this.bounds[1] || hi < this.bounds[0]) this.bounds = [lo, hi];
    else this.bounds = [Math.max(lo, this.bounds[0]), Math.min(hi, this.bounds[1])];
    this.offsetMs = (this.bounds[0] + this.bounds[1]) / 2;
  }

  async put(
    key: string,
    body: string | Buffer,
    cond: { ifNoneMatch?: '*'; ifMatch?: string },
    contentType = 'application/json',
  ): Promise<string> {
    const out = await this.send<{ ETag?: string }>(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ...(cond.ifNoneMatch ? { IfNoneMatch: cond.ifNoneMatch } : {}),
        ...(cond.ifMatch ? { IfMatch: cond.ifMatch } : {}),
      }),
    );
    return out.ETag ?? '';
  }

  /** The object, or null when absent. */
  async get(key: string): Promise<S3Body | null> {
    try {
      const out = await this.send<{
        Body?: { transformToByteArray(): Promise<Uint8Array> };
        ETag?: string;
        LastModified?: Date;
        Metadata?: Record<string, string>;
      }>(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const body = Buffer.from((await out.Body?.transformToByteArray()) ?? new Uint8Array());
      return {
        key,
        etag: out.ETag ?? '',
        lastModifiedMs: wholeSeconds(out.LastModified),
        body,
        metadata: out.Metadata ?? {},
      };
    } catch (err) {
      if (s3Status(err) === 404) return null;
      throw err;
    }
  }

  async delete(key: string, ifMatch: string): Promise<void> {
    await this.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key, IfMatch: ifMatch }));
  }

  async list(prefix: string, token?: string): Promise<{ items: S3Listed[]; next?: string }> {
    const out = await this.send<{
      Contents?: { Key?: string; ETag?: string; LastModified?: Date; Size?: number }[];
      NextContinuationToken?: string;
      IsTruncated?: boolean;
    }>(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token, MaxKeys: 1000 }));
    return {
      items: (out.Contents ?? []).map((c) => ({
        key: c.Key ?? '',
        etag: c.ETag ?? '',
        lastModifiedMs: wholeSeconds(c.LastModified),
        size: c.Size ?? 0,
      })),
      next: out.IsTruncated ? out.NextContinuationToken : undefined,
    };
  }
}

/** LastModified in whole seconds: GET and HEAD give an HTTP date (seconds), a listing an ISO time (milliseconds). */
function wholeSeconds(date: Date | undefined): number {
  return date ? Math.floor(date.getTime() / 1000) * 1000 : 0;
}
