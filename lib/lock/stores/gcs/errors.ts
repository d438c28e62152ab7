// How a failed GCS call is told apart: its HTTP status (0 for a timeout or a network error), and a missing bucket (a
// configuration error) never mistaken for a missing lock object.
import type { MediaResponse } from './media';
import { branded } from '../../support/branded';

/** A failed GCS call: `status` is the HTTP status, or 0 for a timeout or a network error. */
export class GcsCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'GcsCallError';
  }
}

/** The bucket itself does not exist (a configuration error): never mistaken for a missing lock object. */
export class BucketNotFoundError extends GcsCallError {
  constructor(
    readonly bucket: string,
    message: string,
  ) {
    super(404, `Bucket "${bucket}" does not exist: ${message}`);
    this.name = 'BucketNotFoundError';
  }
}

export const isTransient = (err: unknown): boolean =>
  err instanceof GcsCallError &&
  !(err instanceof BucketNotFoundError) &&
  (err.status === 0 || err.status === 429 || err.status >= 500);
/** The HTTP status of a failed object call; undefined for a missing bucket, so no caller reads it as "no object". */
export const statusOf = (err: unknown): number | undefined =>
  err instanceof GcsCallError && !(err instanceof BucketNotFoundError) ? err.status : undefined;

/** A failed media read's message: the JSON API's own words where it sent an error body. */
export function mediaError(res: MediaResponse): string {
  const text = res.body.toString('utf8').slice(0, 500);
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    return text || `HTTP ${res.status}`;
  }
}

branded(GcsCallError, 'GcsCallError');
branded(BucketNotFoundError, 'BucketNotFoundError');
