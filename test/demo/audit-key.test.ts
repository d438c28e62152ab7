// The demo keeps one audit key per data directory: a second and a third start on the same directory sign with the
// key of the first, so the releases recorded before a restart still read as verified operator acts.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoAuditKey } from '@/lib/demo/audit-key';
import type { AuditRecord } from '@/lib/lock/audit/record';
import { setAuditKey, signAuditFields, trustAuditRecords } from '@/lib/lock/audit/trust';

afterEach(() => setAuditKey(undefined));

const release = (at: string): AuditRecord =>
  ({
    id: `r-${at}`,
    at,
    lock: 'locks/nightly',
    event: 'force-released',
    operator: 'operator@demo.lockboard',
    reason: 'stuck',
  }) as AuditRecord;

describe('the demo’s audit key', () => {
  it('is the same on a second and third start on one data directory, so earlier releases stay verified', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lockboard-demo-key-'));
    const first = demoAuditKey(dir, {});
    expect((statSync(join(dir, 'audit-key')).mode & 0o777).toString(8)).toBe('600');
    setAuditKey(first);
    const at = new Date().toISOString();
    const signed = signAuditFields(release(at));
    for (const run of [2, 3]) {
      const key = demoAuditKey(dir, {});
      expect(key, `start ${run}`).toBe(first);
      expect(trustAuditRecords([signed], key)[0]?.verified, `start ${run}`).toBe(true);
    }
    // another data directory is another demo: its own key, under which these records are not verified
    const other = demoAuditKey(mkdtempSync(join(tmpdir(), 'lockboard-demo-key-')), {});
    expect(other).not.toBe(first);
    expect(trustAuditRecords([signed], other)[0]?.verified).toBe(false);
  });

  it('is LOCKBOARD_AUDIT_KEY where the operator set one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lockboard-demo-key-'));
    expect(demoAuditKey(dir, { LOCKBOARD_AUDIT_KEY: 'k'.repeat(43) })).toBe('k'.repeat(43));
  });
});
