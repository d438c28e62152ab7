// S3's error shape: <Error><Code/><Message/>…<RequestId/></Error>, application/xml. The AWS SDK names its exception
// after <Code>; a HEAD error has no body (the SDK then goes by the status alone).
import { randomBytes } from 'node:crypto';
import { xmlEscape } from './xml';

export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'S3Error';
  }

  toXml(): string {
    const fields = Object.entries(this.extra)
      .map(([k, v]) => `<${k}>${xmlEscape(v)}</${k}>`)
      .join('');
    return (
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${this.code}</Code><Message>${xmlEscape(this.message)}</Message>` +
      `${fields}<RequestId>${randomBytes(8).toString('hex').toUpperCase()}</RequestId></Error>`
    );
  }
}

/** Fault statuses in S3's words. */
export const S3_FAULTS: Record<number, [string, string]> = {
  409: ['ConditionalRequestConflict', 'A conflicting operation occurred. Retry the request (injected fault).'],
  429: ['SlowDown', 'Please reduce your request rate (injected fault).'],
  500: ['InternalError', 'We encountered an internal error. Please try again (injected fault).'],
  503: ['SlowDown', 'Please reduce your request rate (injected fault).'],
};
