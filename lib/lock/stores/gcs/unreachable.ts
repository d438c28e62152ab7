// Cloud Storage's own errors judged for the registry (StoreDefinition.judgeError, lib/lock/store-errors.ts): a failed
// JSON API call is the service unavailable (the console answers 503, the CLI exits 3), except a 400, which is the
// request's fault (a bad name, page token or generation: the console answers 400).
import type { StoreErrorJudgement } from '../types';
import { GcsCallError } from './errors';

export function judgeGcsError(err: unknown): StoreErrorJudgement | undefined {
  if (!(err instanceof GcsCallError)) return undefined;
  if (err.status === 400) return { clientMistake: err.message };
  return { unavailable: `Cloud Storage is unavailable (${err.status || 'no response'}): ${err.message}` };
}
