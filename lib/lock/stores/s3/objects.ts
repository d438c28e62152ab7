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
import { DateHeaderClock } from '../../support/date-clock';

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
  /** The service's clock, from its responses' Date headers (one per client). */
  private readonly clock: DateHeaderClock;
  requests = 0;

  constructor(
    readonly client: S3Client,
    readonly bucket: string,
  ) {
    this.clock = DateHeaderClock.of(client);
  }

  now(): number {
    return this.clock.now();
  }

  private send<T>(command: object): Promise<T> {
    this.requests++;
    return this.clock.send<T>(this.client as never, command);
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
      const bytes = (await out.Body?.transformToByteArray()) ?? new Uint8Array();
      const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength); // no copy
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

  async list(
    prefix: string,
    token?: string,
    maxKeys = 1000,
    startAfter?: string,
  ): Promise<{ items: S3Listed[]; next?: string }> {
    const out = await this.send<{
      Contents?: { Key?: string; ETag?: string; LastModified?: Date; Size?: number }[];
      NextContinuationToken?: string;
      IsTruncated?: boolean;
    }>(
      new ListObjectsV2Command({
        Bucket: this.bucket,
        Prefix: prefix,
        ContinuationToken: token,
        MaxKeys: maxKeys,
        ...(startAfter && !token ? { StartAfter: startAfter } : {}),
      }),
    );
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
