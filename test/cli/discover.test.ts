// lockboard discover as a real process (dist/) against the emulator's Cloud Storage and S3: buckets listed, each
// listed as `ls` lists it, the sources found printed with their formats and taken by `ls` as printed; the bounds
// hold and say so; only GET requests are sent; an unreachable target is reported while the others are still
// discovered; bad input is a usage error naming the fix; --from-terraform reads backend blocks with no request.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePlainLock, writePulumiLock, writeTerraformLock, writeTerraformState } from '@/lib/demo/writers';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { acquireS3Lock } from '@/lib/lock/stores/s3';
import { runCli } from '../helpers/cli';
import { s3ClientFor } from '../helpers/s3';

let emulator: Emulator;
let env: Record<string, string>;
let tf: string;

beforeAll(async () => {
  emulator = await startEmulator({ buckets: ['tf-state', 'data'], s3: {} });
  env = { LOCKBOARD_GCS_ENDPOINT: emulator.url, AWS_ENDPOINT_URL_S3: emulator.s3!.url, AWS_REGION: 'us-east-1' };
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'test' });
  await writeTerraformState(storage, 'tf-state', 'envs/prod/default.tfstate');
  await writeTerraformLock(storage, 'tf-state', 'envs/prod/default.tfstate');
  await writeTerraformLock(storage, 'tf-state', 'envs/dev/default.tfstate');
  await writePulumiLock(storage, 'tf-state', '', 'acme/web/prod');
  for (let i = 0; i < 300; i++) await storage.bucket('data').file(`exports/part-${i}.csv`).save('a,b\n');
  await writePlainLock(storage, 'data', 'exports/zz.lock');
  const s3 = s3ClientFor(emulator.s3!.url);
  await s3.send(new CreateBucketCommand({ Bucket: 'tf-aws' }));
  // Terraform >= 1.10 with use_lockfile: KEY.tflock, the LockInfo JSON, created only if absent
  const info = { ID: 'f1d2', Operation: 'OperationTypeApply', Info: '', Who: 'alice@ci', Version: '1.11.4' };
  await s3.send(
    new PutObjectCommand({
      Bucket: 'tf-aws',
      Key: 'envs/prod/terraform.tfstate.tflock',
      Body: JSON.stringify({ ...info, Created: new Date().toISOString(), Path: 'tf-aws/envs/prod/terraform.tfstate' }),
      IfNoneMatch: '*',
    }),
  );
  await acquireS3Lock({ client: s3, bucket: 'tf-aws', name: 'locks/deploy', ttlMs: 600_000 });
  // the lock's own audit record follows its acquisition: written before any request is counted
  const recorded = () => emulator.s3!.requests.entries.some((e) => e.method === 'PUT' && e.path.includes('/audit/'));
  for (let i = 0; i < 100 && !recorded(); i++) await new Promise((r) => setTimeout(r, 50));
  tf = mkdtempSync(join(tmpdir(), 'discover-tf-'));
}, 60_000);
afterAll(async () => {
  rmSync(tf, { recursive: true, force: true });
  await emulator?.close();
});

type Report = {
  targets: {
    target: string;
    sampled: number;
    requests: number;
    cappedBy?: string;
    unreachable?: string;
    problems: string[];
    candidates: { source: string; locks: number; formats: Record<string, number>; capped: boolean }[];
  }[];
};

describe('lockboard discover on object stores', () => {
  it('finds every lock folder of every bucket with the formats ls lists there, sending only reads', async () => {
    const before = { gcs: emulator.requests.entries.length, s3: emulator.s3!.requests.entries.length };
    const run = await runCli(['discover', 'gs://', 's3://', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    const sent = [...emulator.requests.entries.slice(before.gcs), ...emulator.s3!.requests.entries.slice(before.s3)];
    const { targets } = JSON.parse(run.stdout) as Report;
    const found = Object.fromEntries(targets.flatMap((t) => t.candidates.map((c) => [c.source, c.formats])));
    expect(Object.keys(found).sort()).toEqual([
      'gs://data/exports/',
      'gs://tf-state/.pulumi/',
      'gs://tf-state/envs/',
      's3://tf-aws/envs/',
      's3://tf-aws/locks/',
    ]);
    expect(found['gs://tf-state/envs/']).toEqual({ terraform: 2 });
    // each source printed is one ls takes, and ls lists there exactly the formats discover named
    for (const [source, formats] of Object.entries(found)) {
      const ls = await runCli(['ls', source, '--json'], env);
      expect(ls.code, ls.stderr).toBe(0);
      const listed: Record<string, number> = {};
      for (const l of (JSON.parse(ls.stdout) as { locks: { format: string }[] }).locks)
        listed[l.format] = (listed[l.format] ?? 0) + 1;
      expect(listed, source).toEqual(formats);
    }
    expect(sent.length).toBeGreaterThan(3);
    const writes = sent.filter((e) => e.method !== 'GET').map((e) => `${e.method} ${e.path}`);
    expect(writes, JSON.stringify(writes)).toEqual([]);
  });

  it('prints the sources one a line for ls, and ranked candidates with their evidence for people', async () => {
    const emit = await runCli(['discover', 'gs://tf-state', '--emit-sources'], env);
    expect(emit.stdout.trim().split('\n').sort()).toEqual(['gs://tf-state/.pulumi/', 'gs://tf-state/envs/']);
    const ls = await runCli(['ls', emit.stdout.trim().split('\n').sort()[1]!], env);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toContain('envs/prod/default.tflock');
    const text = await runCli(['discover', 'gs://tf-state'], env);
    expect(text.stdout).toMatch(/^gs:\/\/tf-state \(Cloud Storage\): 2 sources · 1 request, 4 read/m);
    expect(text.stdout).toMatch(/^ {2}gs:\/\/tf-state\/envs\/ +2 terraform · sampled 4$/m);
    expect(text.stdout).toContain('LOCKBOARD_SOURCES=gs://tf-state/envs/,gs://tf-state/.pulumi/');
  });

  it('reads at most the sample and says it was capped: 50 of the 301 objects of a bucket', async () => {
    const before = emulator.requests.entries.length;
    const run = await runCli(['discover', 'gs://data', '--sample', '50', '--json'], env);
    const [t] = (JSON.parse(run.stdout) as Report).targets;
    expect(t!.sampled).toBe(50);
    expect(t!.cappedBy).toBe('sample');
    // the lock sorts last: not among the 50 read, so the bucket is said to be not wholly read
    expect(t!.problems).toEqual(['gs://data/: no lock among the first 50 read; the rest not read (a bound)']);
    expect(run.code).toBe(3);
    const lists = emulator.requests.entries.slice(before).filter((e) => e.path.endsWith('/o'));
    // one page asked for 50 objects (listed around the audit trail: up to two requests), never more
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.every((e) => Number(e.query.maxResults) <= 50)).toBe(true);
    const text = await runCli(['discover', 'gs://data', '--sample', '50'], env);
    expect(text.stdout).toContain('stopped by the --sample bound');
    const capped = await runCli(['discover', 'gs://', '--max-requests', '2', '--json'], env);
    const [c] = (JSON.parse(capped.stdout) as Report).targets;
    expect(c!.requests).toBe(2);
    expect(c!.cappedBy).toBe('requests');
  });

  it('reports an unreachable target and still discovers the others (exit 3)', async () => {
    const run = await runCli(['discover', 'redis://127.0.0.1:1', 'gs://tf-state'], env);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/^redis:\/\/127\.0\.0\.1:1: not looked at: .*(ECONNREFUSED|Cannot reach)/m);
    expect(run.stdout).toContain('gs://tf-state/envs/');
  });

  it("reports a bucket whose listing fails in the store's words, and lists the others (exit 3)", async () => {
    emulator.faults.set({ rules: [{ method: 'GET', path: '^/storage/v1/b/data/o$', errorRate: 1, errorStatus: 409 }] });
    try {
      const run = await runCli(['discover', 'gs://', '--json'], env);
      expect(run.code).toBe(3);
      const [t] = (JSON.parse(run.stdout) as Report).targets;
      expect(t!.problems).toHaveLength(1);
      expect(t!.problems[0]).toMatch(/^gs:\/\/data\/: \S/);
      expect(t!.candidates.map((c) => c.source).sort()).toEqual(['gs://tf-state/.pulumi/', 'gs://tf-state/envs/']);
    } finally {
      emulator.faults.set({ rules: [] });
    }
  });

  it('refuses bad input with the problem and the fix (exit 2)', async () => {
    const cases: [string[], RegExp][] = [
      [['discover', 'ftp://host/'], /"ftp:\/\/host\/" is not a store a target can name; targets: gs:\/\//],
      [['discover', 'gs://', '--sample', '-5'], /--sample must be a whole number of at least 1, got "-5"/],
      [['discover', 'gs://', '--max-seconds', '0'], /--max-seconds must be a whole number of at least 1/],
      [['discover', '--from-terraform', join(tf, 'nope')], /no such directory; give the folder holding the \*\.tf/],
      [['discover'], /Name a TARGET/],
      [['discover', 'gs://', '--json', '--emit-sources'], /not both/],
      [['discover', 'gs://b/some/prefix/'], /expected gs:\/\/ or gs:\/\/BUCKET/],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(args, env);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
    const help = await runCli(['discover', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: lockboard discover TARGET');
    expect(help.stdout).toContain('redis://HOST:PORT[/DB]');
  });
});

describe('lockboard discover --from-terraform', () => {
  it('names the lock source of every backend block, -backend-config files merged, with no request', async () => {
    const file = (path: string, text: string) => {
      mkdirSync(join(tf, path, '..'), { recursive: true });
      writeFileSync(join(tf, path), text);
    };
    file(
      'aws/prod/main.tf',
      `terraform {\n  # state and lock\n  backend "s3" {\n    bucket = "tf-aws" // the team's\n    key = "envs/prod/terraform.tfstate"\n    use_lockfile = true\n    dynamodb_table = "tf-locks"\n    assume_role {\n      role_arn = "arn:aws:iam::1:role/x"\n      bucket = "not-this"\n    }\n  }\n}\n`,
    );
    file('gcp/stage/main.tf', 'terraform {\n  backend "gcs" {}\n}\n');
    file('gcp/stage/stage.tfbackend', 'bucket = "tf-state"\nprefix = "envs/stage"\n');
    file(
      'azure/main.tf',
      '/* azure */ terraform {\n backend "azurerm" {\n storage_account_name = "acct1"\n container_name = "tfstate"\n key = "prod/terraform.tfstate"\n}\n}\n',
    );
    file(
      'k8s/main.tf',
      'terraform {\n  backend "kubernetes" {\n    secret_suffix = "state"\n    namespace = "infra"\n  }\n}\n',
    );
    file('old/main.tf', 'terraform {\n  backend "consul" {\n    path = "tf/state"\n  }\n}\n');
    file('.terraform/modules/m/main.tf', 'terraform {\n  backend "gcs" {\n    bucket = "vendored"\n  }\n}\n');
    const before = emulator.requests.entries.length;
    const run = await runCli(['discover', '--from-terraform', tf, '--emit-sources'], env);
    expect(run.stdout.trim().split('\n').sort()).toEqual([
      'azure://acct1/tfstate/prod/',
      'dynamodb://tf-locks',
      'gs://tf-state/envs/stage/',
      'kubernetes://infra',
      's3://tf-aws/envs/prod/',
    ]);
    expect(run.code).toBe(3); // the consul backend was not looked at, and said so
    expect(emulator.requests.entries.length).toBe(before);
    const text = await runCli(['discover', '--from-terraform', tf], env);
    expect(text.stdout).toContain('backend "gcs" in gcp/stage/main.tf with -backend-config=stage.tfbackend');
    expect(text.stdout).toContain(
      `not looked at: old/main.tf: backend "consul": no store of Lockboard's reads its locks`,
    );
  });
  it('reads backend blocks as Terraform does (heredocs, comments, nested blocks, templates); a broken file names its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'discover-hcl-'));
    const file = (path: string, text: string) => {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    // Every trap the former subset parser fell into: a backend block inside a heredoc and inside a /* */ comment
    // (not blocks), a key = value line inside a heredoc and a nested block (not the backend's), a "}" in a string
    // template, a backend block written on one line with its closing brace, `#` and `//` after values.
    file(
      'main.tf',
      [
        'locals {',
        '  motd = <<-EOT',
        '    backend "gcs" {',
        '      bucket = "in-a-heredoc"',
        '    }',
        '  EOT',
        '  name = "${var.env}-}{-${lower("X")}"',
        '}',
        '/* terraform {',
        '  backend "gcs" { bucket = "in-a-comment" }',
        '} */',
        'terraform {',
        '  required_providers {',
        '    google = { source = "hashicorp/google", version = "~> 5.0" }',
        '  }',
        '  backend "gcs" {',
        '    bucket = "tf-hcl" # the team\'s',
        '    prefix = "envs/prod" // the lock folder',
        '    encryption_key = <<EOT',
        'prefix = "from-a-heredoc"',
        'EOT',
        '    impersonate_service_account_delegates = ["a", "b"]',
        '  }',
        '}',
        'resource "null_resource" "x" {',
        '  triggers = { backend = "s3", bucket = "no" }',
        '}',
      ].join('\n') + '\n',
    );
    file('one-line/main.tf', 'terraform {\n  backend "kubernetes" { namespace = "oneline" }\n}\n');
    file('cfg/main.tf', 'terraform {\n  backend "gcs" {}\n}\n');
    file('cfg/a.tfbackend', '# comment\nbucket = "tf-cfg" // why\n/* multi\n line */ prefix = "teams/a"\n');
    file('broken/main.tf', 'terraform {\n  backend "s3" {\n    bucket = "half\n  }\n}\n');
    try {
      const run = await runCli(['discover', '--from-terraform', dir, '--json'], env);
      const [report] = (JSON.parse(run.stdout) as Report).targets;
      expect(report!.candidates.map((c) => c.source).sort()).toEqual([
        'gs://tf-cfg/teams/a/',
        'gs://tf-hcl/envs/prod/',
        'kubernetes://oneline',
      ]);
      expect(report!.problems).toEqual([
        expect.stringMatching(/^broken\/main\.tf: not HCL Terraform reads \(line 3, column \d+: .+\)$/),
      ]);
      expect(run.code).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
