// Which source and lock a command names, for every store: a source URL (`s3://b/p/`, `redis://h/0`…) with an optional
// NAME, a whole lock URL (`gs://b/prod/default.tflock`), or GCS's older flags (--bucket, --prefix, --endpoint and
// their variables) with a bare name. One path: every form ends as a registry source spec.
import { isSourceUrl, parseSource, SOURCE_FORMS, sourceLikeProblem, splitLockUrl } from '../lock/stores';
import type { SourceSpec } from '../lock/stores';
import { UsageError } from './common';

export interface Target {
  spec: SourceSpec;
  /** The lock's full name in the store (status, release, run). */
  name?: string;
  /** The environment the store reads (--endpoint overrides LOCKBOARD_GCS_ENDPOINT). */
  env: Record<string, string | undefined>;
}

interface Flags {
  bucket?: string;
  endpoint?: string;
  prefix?: string;
}

export function resolveTarget(values: Flags, positionals: string[], o: { wantName: boolean }): Target {
  const env = { ...process.env };
  if (values.endpoint !== undefined) {
    if (!/^https?:\/\/[^/]+/.test(values.endpoint))
      throw new UsageError(
        `--endpoint must be an http(s) URL such as http://127.0.0.1:4443, got ${JSON.stringify(values.endpoint)}.`,
      );
    env.LOCKBOARD_GCS_ENDPOINT = values.endpoint;
  }
  const [first, second] = positionals;
  const fromPrefix = values.prefix ?? env.LOCKBOARD_PREFIX;
  // Never read a mistyped source as a lock name under LOCKBOARD_BUCKET ("free", exit 10, to a script)
  const problem = sourceLikeProblem(first) ?? sourceLikeProblem(fromPrefix);
  if (problem) throw new UsageError(problem);
  if (isSourceUrl(first)) return fromUrl(first!, second, values, env, o.wantName);
  if (isSourceUrl(fromPrefix)) return fromUrl(fromPrefix!, first, values, env, o.wantName);
  const bucket = values.bucket ?? env.LOCKBOARD_BUCKET;
  if (!bucket)
    throw new UsageError(`No source given: pass a source URL (${SOURCE_FORMS}), or --bucket NAME / LOCKBOARD_BUCKET.`);
  const prefix = fromPrefix ?? 'locks/';
  const spec = withPrefix(gcsSpec(bucket), o.wantName ? prefix : (first ?? prefix));
  if (!o.wantName) return { spec, env };
  if (!first) throw new UsageError('Missing the lock name, e.g. "deploy-prod".');
  return { spec, env, name: first.startsWith(prefix) ? first : prefix + first };
}

function fromUrl(url: string, name: string | undefined, values: Flags, env: Target['env'], wantName: boolean): Target {
  const split = wantName ? splitLockUrl(url, name) : { source: url };
  let spec: SourceSpec;
  try {
    const bare = /^(gs|s3):\/\/[^/?]+\/[^?]*[^/?]$/.test(split.source);
    spec = parseSource(bare ? `${split.source}/` : split.source, env);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.bucket !== undefined && values.bucket !== spec.bucket)
    throw new UsageError(`--bucket ${values.bucket} contradicts ${url}: give the bucket once.`);
  if (!wantName) return { spec, env };
  if (split.name === undefined)
    throw new UsageError(`${url} names a source, not a lock: add the lock's name after it (${spec.id} NAME).`);
  const full = split.name.startsWith(spec.prefix) ? split.name : spec.prefix + split.name;
  return { spec, env, name: full };
}

function gcsSpec(bucket: string): SourceSpec {
  try {
    return parseSource(`gs://${bucket}/`);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** A GCS source under any prefix (the CLI lists prefixes that need not end with "/"). */
function withPrefix(spec: SourceSpec, prefix: string): SourceSpec {
  return { ...spec, prefix, id: `gs://${spec.bucket}/${prefix}` };
}
