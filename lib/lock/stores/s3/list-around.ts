// One ListObjectsV2 page of an S3 source, around its audit trail when the source holds it: up to the trail, then from
// after it (StartAfter), so the trail's keys are never paged through; the range after the trail follows in the same
// call when the one before it ends, so a small bucket is still one page. `first`: this page starts a whole pass.
import { afterTrail, gapPage, trailGap } from '../../objects/around-trail';
import type { S3Objects } from './objects';

export async function listAroundTrail(
  objects: Pick<S3Objects, 'list'>,
  prefix: string,
  auditPrefix: string,
  token: string | undefined,
  pageSize?: number,
) {
  const gap = trailGap(prefix, auditPrefix);
  if (!gap) {
    const page = await objects.list(prefix, token, pageSize);
    return { items: page.items, next: page.next, first: token === undefined };
  }
  const at = gapPage(gap, token);
  const page = await objects.list(prefix, at.token, pageSize, at.phase === 'b' ? afterTrail(gap) : undefined);
  if (at.phase === 'b') return { items: page.items, next: at.next(page.next), first: false };
  const before = page.items.filter((i) => i.key < gap.before);
  if (before.length === page.items.length && page.next)
    return { items: before, next: at.next(page.next), first: !token };
  const after = await objects.list(prefix, undefined, pageSize, afterTrail(gap));
  return { items: [...before, ...after.items], next: after.next && `b:${after.next}`, first: !token };
}
