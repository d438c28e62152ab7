// The CLI's output carries only Lockboard's own words: the AWS SDK's Node-version notice (printed on Node < 22 by
// every s3:// and dynamodb:// command) is turned off by the SDK's own switch, and a command `lockboard run` starts
// still gets the operator's environment as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';
import { startS3, type S3Target } from '../helpers/s3';

let s3: S3Target;
let dynamo: TestDynamo;
let env: Record<string, string>;
beforeAll(async () => {
  [s3, dynamo] = await Promise.all([startS3(['tf-state']), startDynamo()]);
  await dynamo.table('jobs', 'LockID');
  env = {
    AWS_ENDPOINT_URL_S3: s3.url,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.url,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'x',
    AWS_SECRET_ACCESS_KEY: 'y',
  };
}, 30_000);
afterAll(async () => {
  await s3?.close();
  await dynamo?.stop();
});

const SDK_WORDS = /AWS SDK|NodeVersionSupportWarning|a\.co\/|--trace-warnings/;

describe("the CLI's terminal", () => {
  it.each([['s3://tf-state/envs/'], ['dynamodb://jobs']])('ls %s prints no SDK notice', async (source) => {
    const r = await runCli(['ls', source], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(SDK_WORDS);
    expect(r.stderr).toBe('');
  });

  it("a command run under an s3:// lock sees the operator's environment, without the SDK switch Lockboard set", async () => {
    const probe = 'console.log(JSON.stringify(process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ?? null))';
    const r = await runCli(['run', 's3://tf-state/locks/probe', '--no-wait', '--', process.execPath, '-e', probe], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('null');
    expect(r.stderr).not.toMatch(SDK_WORDS);
    const own = await runCli(['ls', 's3://tf-state/envs/'], {
      ...env,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'false',
    });
    // the operator's own setting wins: on Node < 22 the SDK's notice is theirs to see
    if (Number(process.versions.node.split('.')[0]) < 22) expect(own.stderr).toMatch(/NodeVersionSupportWarning/);
  });
});
