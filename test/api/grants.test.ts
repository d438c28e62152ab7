// The access file's rules: line-numbered problems naming the fix (at start and on reload alike), globs that cannot
// match refused, the shipped example parsed, and every store's lock address from one store-neutral rule.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseSource } from '@/lib/lock/stores';
import { lockAddress } from '@/lib/lock/address';
import { anyGlob, globMatches, namesMatcher } from '@/lib/server/auth/glob';
import { AccessFileError, parseGrants } from '@/lib/server/auth/grants';
import { checkGrantsAtStart } from '@/lib/server/auth/grants-at-start';
import { parseEnv } from '@/lib/server/env';
import { groupsOf } from '@/lib/server/auth/groups';

const problem = (text: string) => {
  try {
    parseGrants(text, 'access.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(AccessFileError);
    return (err as Error).message;
  }
  throw new Error('parsed');
};

describe('the access file', () => {
  it('names the file, the line and the fix for an unknown role, a bad subject, a glob that cannot match', () => {
    const grant = (role: string, who: string, lock: string) =>
      `# grants\ngrants:\n  - who: [ops@example.com]\n    role: operator\n    locks: ['*']\n  - who: [${who}]\n    role: ${role}\n    locks: ['${lock}']\n`;
    expect(problem(grant('admin', 'ann@example.com', '*'))).toMatch(
      /^access\.yaml:7: grants\.1\.role must be one of viewer, releaser, operator/,
    );
    expect(problem(grant('viewer', 'ann', '*'))).toMatch(
      /^access\.yaml:6: .*e-mail address, "@domain" or "group:NAME"/,
    );
    expect(problem(grant('viewer', 'ann@example.com', 'tf-state/payments/*'))).toMatch(
      /^access\.yaml:8: .*matches no lock address: start it with "\*" or with a source's scheme \(gs:\/\/, /,
    );
    expect(problem(grant('viewer', 'ann@example.com', 'redis://:pw@h:6379/0/*'))).toMatch(/never carry credentials/);
    expect(problem(grant('viewer', 'ann@example.com', ''))).toMatch(/an empty glob matches no lock/);
  });

  it('refuses YAML that does not parse, unknown keys, and a token that is not a sha256', () => {
    expect(problem('grants:\n  - who: [a@b.c]\n   role: x\n')).toMatch(/^access\.yaml:\d+: not valid YAML or JSON/);
    expect(problem('grant:\n  - who: [a@b.c]\n')).toMatch(/^access\.yaml:1: .*grant/);
    expect(problem('tokens:\n  - name: ci\n    sha256: abc\n    role: viewer\n    locks: ["*"]\n')).toMatch(
      /^access\.yaml:3: tokens\.0\.sha256 must be the token's sha256 in hex/,
    );
  });

  it('reads JSON as well, and adds nothing it was not given', () => {
    const g = parseGrants('{"grants":[{"who":"group:sre","role":"releaser","locks":["*"]}]}', 'access.json');
    expect(g).toEqual({ grants: [{ who: ['group:sre'], role: 'releaser', locks: ['*'] }], tokens: [] });
  });

  it('stops the console at start on a malformed file, and warns when nothing is granted (fail closed)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lockboard-grants-'));
    const file = join(dir, 'access.yaml');
    writeFileSync(file, 'grants:\n  - who: [a@example.com]\n    role: root\n    locks: ["*"]\n');
    const base = { LOCKBOARD_BUCKET: 'test-bucket', NEXTAUTH_SECRET: 'test-secret-0123456789abcdef' };
    expect(() => checkGrantsAtStart(parseEnv({ ...base, LOCKBOARD_ACCESS_FILE: file }))).toThrow(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3: grants\\.0\\.role must be one of`),
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    checkGrantsAtStart(parseEnv(base));
    expect(warn.mock.calls.flat().join(' ')).toMatch(/No grant is configured: nobody can see or release any lock/);
    warn.mockRestore();
  });

  it('parses the shipped example, which grants the demo accounts and a real team layout', () => {
    const g = parseGrants(readFileSync('deploy/access.example.yaml', 'utf8'), 'deploy/access.example.yaml');
    expect(g.grants.find((x) => x.who.includes('ci-team@demo.lockboard'))).toEqual({
      who: ['ci-team@demo.lockboard'],
      role: 'operator',
      locks: ['gs://lockboard-demo/ci/*'],
    });
    expect(g.tokens.map((t) => t.name)).toEqual(['ci-reader']);
  });
});

describe('SSO groups', () => {
  it('reads the configured claim, an array or one name, bounded, and nothing from a provider without one', () => {
    expect(groupsOf({ groups: ['sre', 'payments', 'sre', 7] }, 'groups')).toEqual(['sre', 'payments']);
    expect(groupsOf({ roles: 'oncall' }, 'roles')).toEqual(['oncall']);
    expect(groupsOf({ email: 'a@gmail.com' }, 'groups')).toEqual([]);
    expect(groupsOf({ groups: Array.from({ length: 500 }, (_, i) => `g${i}`) }, 'groups')).toHaveLength(200);
  });
});

describe('lock addresses and globs', () => {
  it('joins each store’s source as configured (no credentials, no query) with the lock’s name', () => {
    const cases: [string, string, string][] = [
      ['gs://tf-state/payments/', 'payments/prod.tflock', 'gs://tf-state/payments/prod.tflock'],
      ['gs://tf-state/', 'x/y', 'gs://tf-state/x/y'],
      ['redis://:secret@cache:6379/2?match=lock*', 'lock:jobs', 'redis://cache:6379/2/lock:jobs'],
      ['postgres://u:p@db.internal:5432/payments', 'migrations', 'postgres://db.internal:5432/payments/migrations'],
      ['kubernetes://team-a', 'leader', 'kubernetes://team-a/leader'],
      ['file:///var/locks', 'backup.lock', 'file:///var/locks/backup.lock'],
      ['etcd://h1:2379,h2:2379/locks/', 'locks/a', 'etcd://h1:2379,h2:2379/locks/a'],
      ['dynamodb://tf-locks', 'state/prod', 'dynamodb://tf-locks/state/prod'],
    ];
    for (const [url, name, address] of cases) expect(lockAddress(parseSource(url, {}), name), url).toBe(address);
  });

  it('* matches any run of characters, slashes too; everything else only itself', () => {
    expect(globMatches('gs://tf-state/payments/*', 'gs://tf-state/payments/a/b.tflock')).toBe(true);
    expect(globMatches('gs://tf-state/payments/*', 'gs://tf-state/payments-old/a')).toBe(false);
    expect(globMatches('redis://*', 'redis://cache:6379/0/k')).toBe(true);
    expect(globMatches('*/migrations', 'postgres://db:5432/app/migrations')).toBe(true);
    expect(globMatches('gs://a.b/?', 'gs://axb/c')).toBe(false);
  });

  it('tests names under a source exactly as their addresses would be tested (the query’s fast path)', () => {
    const start = 'gs://tf-state/';
    const names = ['payments/a', 'payments/b/c', 'payments-old/x', 'ci/build', 'ci', '/lead', 'pay'];
    const globSets = [
      ['gs://tf-state/payments/*'],
      ['gs://tf-state/*'],
      ['gs://*'],
      ['*/build', 'redis://*'],
      ['gs://tf-state/ci'],
      ['gs://tf-state/pay*ments/*', 'gs://other/*'],
      ['gs://tf-*/ci/*'],
      ['s3://*'],
      ['*/pa?ments/*', '*/c?'], // `?`: one character (webhooks' globs; a grant refuses it after a scheme)
    ];
    for (const globs of globSets) {
      const byName = namesMatcher(globs, start);
      const byAddress = anyGlob(globs);
      for (const n of names)
        expect(byName ? byName(n) : true, `${globs.join(',')} ${n}`).toBe(
          byAddress ? byAddress(start + n.replace(/^\/+/, '')) : true,
        );
    }
  });
});
