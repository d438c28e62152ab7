import { describe, expect, it } from 'vitest';
import { emailVerified, safeRedirect } from '@/lib/server/auth/auth';
import { parseEnv } from '@/lib/server/env';
import { roleFor } from '@/lib/server/auth/roles';

const base = { LOCKBOARD_BUCKET: 'locks-prod', NEXTAUTH_SECRET: 'a'.repeat(32) };

describe('console configuration', () => {
  it('fills defaults', () => {
    const env = parseEnv(base);
    expect(env.sources).toMatchObject([
      { id: 'gs://locks-prod/locks/', store: 'gcs', bucket: 'locks-prod', bucketId: 'locks-prod', prefix: 'locks/' },
    ]);
    expect(env.LOCKBOARD_AUDIT_PREFIX).toBe('.lockboard/audit/');
    expect(env.LOCKBOARD_DEMO).toBe(false);
  });

  it('reads LOCKBOARD_SOURCES as bucket + prefix pairs (a whole bucket with "gs://b/")', () => {
    const env = parseEnv({
      NEXTAUTH_SECRET: 'a'.repeat(32),
      LOCKBOARD_SOURCES: 'gs://tf-state-prod/, gs://ci-locks/locks/',
    });
    expect(env.sources).toMatchObject([
      { id: 'gs://tf-state-prod/', store: 'gcs', bucket: 'tf-state-prod', bucketId: 'tf-state-prod', prefix: '' },
      { id: 'gs://ci-locks/locks/', store: 'gcs', bucket: 'ci-locks', bucketId: 'ci-locks', prefix: 'locks/' },
    ]);
  });

  it('keeps a multi-host etcd source whole between the commas that separate sources', () => {
    const env = parseEnv({
      NEXTAUTH_SECRET: 'a'.repeat(32),
      LOCKBOARD_SOURCES: 'gs://ci-locks/locks/,etcd://10.0.0.1:2379,10.0.0.2:2379/jobs/, redis://cache:6379/0',
    });
    expect(env.sources.map((x) => [x.store, x.id])).toEqual([
      ['gcs', 'gs://ci-locks/locks/'],
      ['etcd', 'etcd://10.0.0.1:2379,10.0.0.2:2379/jobs/'],
      ['redis', 'redis://cache:6379/0'],
    ]);
  });

  it('reads s3:// sources beside gs:// ones, with the bucket as requests name it', () => {
    const env = parseEnv({
      NEXTAUTH_SECRET: 'a'.repeat(32),
      LOCKBOARD_SOURCES: 'gs://ci-locks/locks/,s3://tf-state/envs/',
      AWS_REGION: 'eu-west-1',
    });
    expect(env.sources[1]).toMatchObject({
      id: 's3://tf-state/envs/',
      store: 's3',
      bucket: 'tf-state',
      bucketId: 's3://tf-state',
      prefix: 'envs/',
    });
  });

  const bad: [string, Record<string, string>, RegExp][] = [
    [
      'an s3:// source without a region or endpoint',
      { NEXTAUTH_SECRET: 'a'.repeat(32), LOCKBOARD_SOURCES: 's3://tf-state/' },
      /AWS_REGION is required for s3:\/\/ sources/,
    ],
    [
      'demo mode against a real S3',
      {
        NEXTAUTH_SECRET: 'a'.repeat(32),
        LOCKBOARD_DEMO: '1',
        LOCKBOARD_GCS_ENDPOINT: 'http://127.0.0.1:4443',
        LOCKBOARD_SOURCES: 's3://tf-state/',
        AWS_REGION: 'eu-west-1',
      },
      /AWS_ENDPOINT_URL_S3 on 127\.0\.0\.1 or localhost/,
    ],
    [
      'a source of another scheme',
      { NEXTAUTH_SECRET: 'a'.repeat(32), LOCKBOARD_SOURCES: 'ftp://c/' },
      /is not a source URL; use one of gs:\/\/BUCKET\/PREFIX, s3:\/\/BUCKET\/PREFIX, .*redis:\/\/HOST:PORT\/DB/,
    ],
    ['a missing NEXTAUTH_SECRET', { LOCKBOARD_BUCKET: 'b-1' }, /NEXTAUTH_SECRET is required/],
    ['a missing bucket', { NEXTAUTH_SECRET: 'a'.repeat(32) }, /LOCKBOARD_BUCKET is required \(or LOCKBOARD_SOURCES/],
    [
      'demo accounts outside demo mode',
      { ...base, LOCKBOARD_DEMO_ACCOUNTS: '1' },
      /LOCKBOARD_DEMO_ACCOUNTS demo sign-in accounts can only be enabled with LOCKBOARD_DEMO=1/,
    ],
    [
      'a prefix without a trailing slash',
      { ...base, LOCKBOARD_PREFIXES: 'locks' },
      /LOCKBOARD_PREFIXES each prefix must end with "\/"/,
    ],
    [
      'a bad endpoint',
      { ...base, LOCKBOARD_GCS_ENDPOINT: 'localhost:4443' },
      /LOCKBOARD_GCS_ENDPOINT must be an http\(s\) URL/,
    ],
    ['half a Google client', { ...base, GOOGLE_CLIENT_ID: 'x' }, /set both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET/],
    [
      'a source that is not gs://BUCKET/PREFIX',
      { NEXTAUTH_SECRET: 'a'.repeat(32), LOCKBOARD_SOURCES: 'tf-state-prod/locks/' },
      /LOCKBOARD_SOURCES "tf-state-prod\/locks\/" is not a source URL; use one of gs:\/\/BUCKET\/PREFIX/,
    ],
    [
      'a source prefix without a trailing slash',
      { NEXTAUTH_SECRET: 'a'.repeat(32), LOCKBOARD_SOURCES: 'gs://ci-locks/locks' },
      /the prefix must end with "\/" \(gs:\/\/ci-locks\/locks\/\)/,
    ],
    [
      'a source with a bad bucket name',
      { NEXTAUTH_SECRET: 'a'.repeat(32), LOCKBOARD_SOURCES: 'gs://Bad_Bucket/' },
      /"Bad_Bucket" is not a bucket name/,
    ],
    [
      'sources together with LOCKBOARD_BUCKET',
      { ...base, LOCKBOARD_SOURCES: 'gs://ci-locks/locks/' },
      /LOCKBOARD_SOURCES replaces LOCKBOARD_BUCKET and LOCKBOARD_PREFIXES/,
    ],
    ['a bad long-held duration', { ...base, LOCKBOARD_LONG_HELD: 'forever' }, /LOCKBOARD_LONG_HELD must be a duration/],
    [
      'demo mode with Google sign-in',
      {
        ...base,
        LOCKBOARD_DEMO: '1',
        LOCKBOARD_GCS_ENDPOINT: 'http://127.0.0.1:4443',
        GOOGLE_CLIENT_ID: 'i',
        GOOGLE_CLIENT_SECRET: 's',
      },
      /LOCKBOARD_DEMO demo mode .* cannot be combined with Google or OIDC sign-in/,
    ],
    ['demo mode against real Cloud Storage', { ...base, LOCKBOARD_DEMO: '1' }, /only runs against a local emulator/],
    [
      'demo mode against a remote endpoint',
      { ...base, LOCKBOARD_DEMO: '1', LOCKBOARD_GCS_ENDPOINT: 'http://10.0.0.5:4443' },
      /only runs against a local emulator/,
    ],
  ];
  for (const [what, source, message] of bad) {
    it(`stops on ${what} with a message naming the variable`, () => {
      expect(() => parseEnv(source)).toThrow(message);
    });
  }
});

describe('sign-in', () => {
  it('accepts only addresses the provider asserts are verified', () => {
    expect(emailVerified({ email: 'a@example.com', email_verified: true })).toBe(true);
    expect(emailVerified({ email: 'a@example.com', email_verified: 'true' })).toBe(true);
    for (const profile of [{ email_verified: false }, { email_verified: 'false' }, {}, undefined, null]) {
      expect(emailVerified(profile)).toBe(false);
    }
  });

  it('redirects only to same-site destinations, and never throws on a malformed callback URL', () => {
    const base = 'https://locks.example.com';
    expect(safeRedirect('/locks/locks/deploy', base)).toBe(`${base}/locks/locks/deploy`);
    expect(safeRedirect(`${base}/churn`, base)).toBe(`${base}/churn`);
    for (const bad of ['https://evil.example/x', '//evil.example', '/\\evil.example', 'garbage', 'http://[::1', '']) {
      expect(safeRedirect(bad, base)).toBe(`${base}/locks`);
    }
  });
});

describe('roles', () => {
  it('matches exact addresses and @domain entries, case-insensitively, and fails closed', () => {
    const ops = ['Ann@Example.com'];
    const viewers = ['@example.com'];
    expect(roleFor('ann@example.com', ops, viewers)).toBe('operator');
    expect(roleFor('bob@example.com', ops, viewers)).toBe('viewer');
    expect(roleFor('bob@notexample.com', ops, viewers)).toBeNull();
    expect(roleFor('bob@example.com.evil.io', ops, viewers)).toBeNull();
    expect(roleFor(undefined, ops, viewers)).toBeNull();
  });
});
