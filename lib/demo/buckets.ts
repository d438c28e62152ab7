// The demo's buckets on the embedded emulator and the sources the console watches in them: the demo starts them
// and its discover check (test/cli/discover-demo-buckets.test.ts) finds them, from this one list.
import { PLATFORM_BUCKET } from './platform';
import { S3_BUCKET } from './s3';

/** The GCS bucket of the demo's own holders (Lockboard's format under locks/ and ci/). */
export const DEMO_BUCKET = 'lockboard-demo';
/** Every GCS bucket the demo creates. */
export const GCS_BUCKETS = [DEMO_BUCKET, PLATFORM_BUCKET];

/** The emulator's sources as the demo configures them. */
export function bucketSources(): string[] {
  return [`gs://${DEMO_BUCKET}/locks/`, `gs://${DEMO_BUCKET}/ci/`, `gs://${PLATFORM_BUCKET}/`, `s3://${S3_BUCKET}/`];
}
