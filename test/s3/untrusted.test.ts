// Cloud Storage and S3 sources where a holder wrote anything (#39 item 1): malformed bodies and metadata, written
// through the official clients, cost only their own fields; the rest of each source lists in the library, the
// console API and the CLI (text escaped, JSON exact).
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { openSource, parseSource } from '@/lib/lock/stores';
import { runCli } from '../helpers/cli';
import { HOSTILE_TEXT, malformedBodies, RAW_UNSAFE, textFieldsAreText } from '../helpers/fuzz';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { s3ClientFor } from '../helpers/s3';

const OPERATOR = 'ops@example.com';
const TF = {
  ID: 'a1b2',
  Operation: 'OperationTypeApply',
  Info: '',
  Who: 'ann@ci',
  Version: '1.9.0',
  Created: '2026-01-01T00:00:00Z',
  Path: 'x',
};
const S3_LOCK = {
  format: 'lockboard/1',
  token: '3',
  seq: '1',
  identity: 'runner-1',
  host: 'ci',
  pid: '7',
  ttl_ms: '60000',
};
let emulator: Emulator;
let routes: Routes;
let env: Record<string, string>;

beforeAll(async () => {
  emulator = await startEmulator({ buckets: ['ci-locks'], s3: { buckets: ['tf-state'] } });
  env = {
    LOCKBOARD_GCS_ENDPOINT: emulator.url,
    AWS_ENDPOINT_URL_S3: emulator.s3!.url,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'x',
    AWS_SECRET_ACCESS_KEY: 'y',
  };
  const s3 = s3ClientFor(emulator.s3!.url);
  const put = (Key: string, body: unknown) =>
    s3.send(
      new PutObjectCommand({ Bucket: 'tf-state', Key, Body: typeof body === 'string' ? body : JSON.stringify(body) }),
    );
  await put('good.tflock', TF);
  for (const [label, body] of malformedBodies(TF, ['Who', 'Operation'])) await put(`tf-${label}.tflock`, body);
  for (const [label, body] of malformedBodies(S3_LOCK, ['identity', 'host'])) await put(`lb-${label}`, body);
  await put('truncated.tflock', '{"Who": ');
  await put('\u001b[2Jescape.tflock', TF);
  const bucket = new Storage({ apiEndpoint: emulator.url, projectId: 'test' }).bucket('ci-locks');
  await bucket.file('locks/good.tflock').save(JSON.stringify(TF));
  for (const [label, body] of malformedBodies(TF, ['Who']))
    await bucket.file(`locks/tf-${label}.tflock`).save(JSON.stringify(body));
  await bucket
    .file('locks/vault')
    .save('', { metadata: { metadata: { lock: '{"identity":{"a":1},"timestamp":[1]}' } } });
  for (const [i, text] of HOSTILE_TEXT.entries())
    await bucket
      .file(`locks/hostile-${i}`)
      .save('', { metadata: { metadata: { format: 'lockboard/1', ttl_ms: '60000', identity: text, purpose: text } } });
  Object.assign(process.env, env, {
    LOCKBOARD_SOURCES: 'gs://ci-locks/locks/,s3://tf-state/',
    LOCKBOARD_OPERATORS: OPERATOR,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
}, 60_000);
afterAll(() => emulator?.close());

async function listed(source: string) {
  const store = await openSource(parseSource(source), { env, role: 'cli' });
  try {
    return (await store.list()).locks;
  } finally {
    await store.close();
  }
}

describe.each([
  ['S3', 's3://tf-state/', 'good.tflock'],
  ['Cloud Storage', 'gs://ci-locks/locks/', 'locks/good.tflock'],
])('malformed lock bodies on %s', (_, source, good) => {
  it('list in the library with every shown field as text, wrong-typed ones named in the note', async () => {
    const locks = await listed(source);
    expect(locks.map((l) => l.name)).toContain(good);
    for (const l of locks) expect(textFieldsAreText(l as never), l.name).toEqual([]);
    const who = locks.find((l) => l.name.endsWith('tf-Who#1.tflock'))!;
    expect(who.identity).toBeUndefined();
    expect(who.note).toMatch(/Who \(an object\)/);
  });

  it('list in the console API and the CLI (text escaped, exit 0)', async () => {
    const res = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
    expect(res.status).toBe(200);
    expect((res.json.locks as { name: string }[]).map((l) => l.name)).toContain(good);
    const ls = await runCli(['ls', source], env);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toContain(good);
    expect(ls.stdout).not.toMatch(RAW_UNSAFE);
  });
});

it('names wrong-typed fields of an S3 Lockboard body and a Vault lock', async () => {
  const s3 = await listed('s3://tf-state/');
  const lb = s3.find((l) => l.name === 'lb-identity#1')!;
  expect(lb.identity).toBeUndefined();
  expect(lb.note).toMatch(/identity \(an object\)/);
  expect(s3.map((l) => l.name)).toContain('\u001b[2Jescape.tflock');
  const vault = (await listed('gs://ci-locks/locks/')).find((l) => l.name === 'locks/vault')!;
  expect(vault.identity).toBeUndefined();
  expect(vault.note).toMatch(/identity \(an object\), timestamp \(a list\)/);
});
