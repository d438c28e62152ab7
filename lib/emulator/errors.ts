// Errors in the shape the GCS JSON API uses, so the official client maps them exactly as it would in production.
export class GcsError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly location?: { type: string; name: string },
  ) {
    super(message);
    this.name = 'GcsError';
  }

  toJSON(): unknown {
    const detail: Record<string, string> = { message: this.message, domain: 'global', reason: this.reason };
    if (this.location) {
      detail.locationType = this.location.type;
      detail.location = this.location.name;
    }
    return { error: { code: this.status, message: this.message, errors: [detail] } };
  }
}

export const notFound = (what: string): GcsError => new GcsError(404, 'notFound', `No such object: ${what}`);
export const bucketNotFound = (bucket: string): GcsError =>
  new GcsError(404, 'notFound', `The specified bucket does not exist: ${bucket}`);
export const invalid = (message: string): GcsError => new GcsError(400, 'invalid', message);
export const conditionNotMet = (header = 'If-Match'): GcsError =>
  new GcsError(412, 'conditionNotMet', 'At least one of the pre-conditions you specified did not hold.', {
    type: 'header',
    name: header,
  });
export const notModified = (): GcsError => new GcsError(304, 'notModified', 'Not Modified');
export const rateLimited = (name: string): GcsError =>
  new GcsError(
    429,
    'rateLimitExceeded',
    `The object ${name} exceeded the rate limit for object mutation operations (create, update, and delete).`,
  );
