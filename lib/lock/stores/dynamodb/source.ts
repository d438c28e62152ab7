// DynamoDB sources: `dynamodb://TABLE` (`?audit=TABLE` for the audit table, default lockboard-audit). Lock tables
// sharing an audit table share one trail.
import type { SourceSpec } from '../types';

/** The audit table of a source without ?audit= (created by `lockboard dynamodb init`). */
export const DEFAULT_AUDIT_TABLE = 'lockboard-audit';

const URL_FORM = /^dynamodb:\/\/([^/?#]*)\/?(?:\?(.*))?$/;
const TABLE = /^[a-zA-Z0-9_.-]{3,255}$/;

export function parseDynamoSource(url: string): SourceSpec {
  const m = URL_FORM.exec(url);
  if (!m) throw new Error(`expected dynamodb://TABLE, got ${JSON.stringify(url)}`);
  const [, table = '', query] = m;
  if (!TABLE.test(table)) throw new Error(`${JSON.stringify(table)} is not a DynamoDB table name (in ${url})`);
  const params = new URLSearchParams(query ?? '');
  const unknown = [...params.keys()].filter((k) => k !== 'audit');
  if (unknown.length) throw new Error(`"${url}": the only source option is ?audit=TABLE`);
  const audit = params.get('audit');
  if (audit !== null && !TABLE.test(audit)) throw new Error(`"${audit}" is not a DynamoDB table name (in ${url})`);
  const id = `dynamodb://${table}`;
  const full = audit ? `${id}?audit=${audit}` : id;
  // Lock tables sharing an audit table share one trail: read once, each event counted once
  const trail = `dynamodb-audit://${audit ?? DEFAULT_AUDIT_TABLE}`;
  return { kind: 'dynamodb', id, bucket: id, bucketId: id, prefix: '', url: full, trail };
}

/** The lock table of a parsed source's URL. */
export const tableOf = (url: string) => URL_FORM.exec(url)![1]!;
/** The audit table a parsed source's URL names (?audit=), if any. */
export const auditOf = (url: string) => new URLSearchParams(URL_FORM.exec(url)![2] ?? '').get('audit') ?? undefined;
