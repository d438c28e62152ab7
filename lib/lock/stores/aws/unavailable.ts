// The AWS SDK's errors judged for the registry (StoreDefinition.judgeError of S3 and DynamoDB): a request the SDK
// could not complete (unreachable, throttled, denied) carries `$metadata`, and is the service unavailable.
import type { StoreErrorJudgement } from '../types';

export function judgeAwsError(err: unknown): StoreErrorJudgement | undefined {
  if (typeof err !== 'object' || err === null || !('$metadata' in err)) return undefined;
  const { $metadata, message } = err as { $metadata?: { httpStatusCode?: number }; message?: string };
  return { unavailable: `The AWS service is unavailable (${$metadata?.httpStatusCode ?? 'no response'}): ${message}` };
}
