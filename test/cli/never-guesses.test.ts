// The CLI never guesses: a mistyped source is a usage error (2) naming the form expected, never a lock name read as
// "free"; every help page names every store of the registry; the audit line says exactly what was recorded.
import { describe, expect, it } from 'vitest';
import { auditLine } from '@/lib/cli/audit-line';
import { STORES } from '@/lib/lock/stores';
import { startCli } from '../helpers/cli';

const run = (args: string[], env: Record<string, string> = {}) => startCli(args, env).done;
const ENV = { LOCKBOARD_BUCKET: 'lockboard-demo', LOCKBOARD_GCS_ENDPOINT: 'http://127.0.0.1:9' };

describe('a source-like argument that does not parse', () => {
  it('is usage error 2 naming the scheme expected, for status, ls and release; nothing is read', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['status', 'dynamodb:/tf-locks', 'foo'],
        /"dynamodb:\/tf-locks" is not a DynamoDB source: expected dynamodb:\/\/TABLE/,
      ],
      [['ls', 'redis:/broken'], /"redis:\/broken" is not a Redis source: expected redis:\/\/HOST:PORT/],
      [['release', 's3:tf/x', '--version', '1', '--reason', 'r'], /is not a S3 source: expected s3:\/\/BUCKET/],
      [
        ['status', 'gcs://bucket/lock'],
        /"gcs:\/\/" is no store's; use one of gs:\/\/BUCKET\/PREFIX, .*dynamodb:\/\/TABLE/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await run(args, ENV);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).not.toMatch(/free|No locks/);
    }
  });

  it('still takes a lock name with a colon that is no store scheme (a Redis key under its source)', async () => {
    const r = await run(['status', 'locks:report'], ENV);
    expect(r.code).toBe(3); // read from the (unreachable) bucket, not refused as a source
    expect(r.stderr).toMatch(/Cannot reach/);
  });
});

describe('help pages', () => {
  it('name every store of the registry on every page', async () => {
    for (const page of [['--help'], ['run', '--help'], ['ls', '--help'], ['status', '--help'], ['release', '--help']]) {
      const r = await run(page);
      for (const s of STORES) {
        expect(r.stdout, `${page.join(' ')}: ${s.label}`).toContain(s.form);
        expect(r.stdout, `${page.join(' ')}: ${s.label}`).toContain(s.label);
      }
    }
  });
});

describe('the audit line of a release', () => {
  it('names the outcome record as the outcome when no attempt was written (a refusal before any change)', () => {
    const line = auditLine({ outcome: 'changed', audit: ['a/o1'], recorded: { outcome: 'a/o1' } });
    expect(line).toBe(
      'Audit: outcome recorded (a/o1); no attempt was recorded, since it was refused before any change.',
    );
  });

  it('says which was written when the outcome could not be, and says so when nothing was', () => {
    expect(auditLine({ outcome: 'released', audit: ['a/1'], recorded: { attempt: 'a/1' }, auditError: 'quota' })).toBe(
      'Audit: attempt recorded (a/1); the outcome could not be recorded: quota.',
    );
    expect(auditLine({ outcome: 'gone', audit: [] })).toMatch(
      /^Audit: nothing recorded: it was refused before any change/,
    );
    expect(auditLine({ outcome: 'released', audit: ['a/1', 'a/2'] })).toBe(
      'Audit: attempt recorded (a/1), outcome recorded (a/2).',
    );
  });
});
