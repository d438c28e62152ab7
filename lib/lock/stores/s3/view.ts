// How an S3 object is shown: Lockboard's S3 lock keeps its fields in a small JSON body, other formats go through the
// object format registry GCS shares; the version is ETag + LastModified, in S3's own words.
import type { ObjectView } from '../../objects/formats';
import { stringField } from '../../objects/formats/types';
import { jsonObject } from '../../support/untrusted';
import type { ObjectIdentity } from '../../objects/inspect';
import type { LockView } from '../../store';
import type { LockInfo } from '../../types';
import type { S3Body, S3Listed } from './objects';
import { s3Terms } from './words';

/** Lockboard's S3 lock bodies are under 1 KiB: objects this small are read to find them. */
export const LOCKBOARD_BODY_LIMIT = 4096;

/**
 * An S3 object as the format registry sees it: Lockboard's S3 lock keeps its fields in its JSON body (its fencing
 * token and refresh count stand where GCS has generation and metageneration). Times stay numbers: a cold listing
 * builds this for every one of thousands of objects.
 */
export function objectOf(
  item: S3Listed,
  body: S3Body | undefined,
  bucket: string,
): { view: ObjectView; id: ObjectIdentity } {
  const dropped: string[] = [];
  const fields = body ? lockboardFields(body.body, dropped) : undefined;
  const acquired = Number(fields?.acquired_ms);
  const view: ObjectView = {
    name: item.key,
    metadata: fields ?? body?.metadata ?? {},
    size: item.size,
    createdMs: Number.isFinite(acquired) && acquired > 0 ? acquired : item.lastModifiedMs,
    updatedMs: item.lastModifiedMs,
    temporaryHold: false,
  };
  if (body) view.body = body.body;
  if (dropped.length) view.dropped = dropped;
  return { view, id: { bucket, generation: fields?.token ?? '0', metageneration: fields?.seq ?? '1' } };
}

/** The string fields of a Lockboard S3 lock body (`format: lockboard/1`), or undefined for any other body. */
export function lockboardFields(body: Buffer, dropped: string[] = []): Record<string, string> | undefined {
  if (body.length > LOCKBOARD_BODY_LIMIT || body[0] !== 0x7b) return undefined;
  const parsed = jsonObject(body.toString('utf8'));
  if (parsed?.format !== 'lockboard/1') return undefined;
  // a holder may have written anything: scalars are kept as text, an object or a list is dropped and named
  const fields: Record<string, string> = {};
  for (const key of Object.keys(parsed)) {
    const v = stringField(parsed, key, dropped);
    if (v !== undefined) fields[key] = v;
  }
  return fields;
}

/** The S3 view of a LockInfo just built for it (filled in place: one object per lock). */
export function s3View(info: LockInfo, source: string, etag: string, lastModifiedMs: number): LockView {
  const hex = etag.replace(/"/g, '');
  // ETag + LastModified: a lock rewritten with the same bytes (a plain "lock" body) has the same ETag but not the
  // same LastModified, so a release prepared on the old one is refused on the re-read before the DeleteObject
  // A Lockboard lock's version also names its fencing token: a newer version with the same token is a refresh
  const lockboard = info.format === 'lockboard';
  const version = `${hex}.${lastModifiedMs}${lockboard ? `.${info.generation}` : ''}`;
  const view = info as LockView;
  view.store = 's3';
  view.source = source;
  view.version = version;
  view.versionLabel = `ETag ${hex.slice(0, 8)}${lockboard ? ` · token ${info.generation}` : ''}`;
  view.terms = s3Terms(lockboard);
  if (info.format === 'terraform') {
    const id = info.details.find(([label]) => label === 'Terraform lock info ID')?.[1];
    view.releaseNote =
      `Deletes the .tflock object only if it is still the version you saw (DeleteObject If-Match), unlike ` +
      `\`terraform force-unlock ${id ?? '<ID>'}\`, which deletes whatever is there. If the run that holds it is ` +
      'still applying, two applies can then write the state at once.';
    if (id) {
      view.details = [...view.details, ['Equivalent command', `terraform force-unlock ${id}`]];
      view.pairKey = `terraform:${info.bucket}/${info.name.replace(/\.tflock$/, '')}#${id}`;
    }
  } else if (info.format === 'lockboard') {
    view.releaseNote =
      'Replaces the lock with a released marker if it is still the version you saw (PutObject If-Match): the marker ' +
      'keeps the fencing counter; the holder learns at its next refresh (412) and its signal aborts.';
  } else if (info.releasable) {
    view.releaseNote = 'Deletes the object only if it is still the version you saw (DeleteObject If-Match).';
  }
  return view;
}

export function releasedMarker(lock: LockView): string {
  return JSON.stringify({
    format: 'lockboard/1',
    released: 'true',
    token: lock.generation,
    nonce: Math.random().toString(16).slice(2),
  });
}

/** The fencing token a Lockboard S3 lock's version names (ETAG.MILLIS.TOKEN), if any. */
export function tokenOfVersion(version: string): string | undefined {
  return version.split('.')[2];
}
