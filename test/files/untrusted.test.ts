// Lock files where any local user writes what they like (#39 item 1): JSON that is no object, wrong-typed fields and
// hostile text cost only their own lock; the directory lists in the library and the CLI (text escaped).
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { HOSTILE_TEXT, RAW_UNSAFE, textFieldsAreText } from '../helpers/fuzz';
import { storeOf, tempDir } from './tools';
import { trustAuditRecords } from '@/lib/lock/audit/trust';

let dir: string;
beforeAll(() => {
  dir = tempDir();
  fs.writeFileSync(`${dir}/good.lock`, `${process.pid}\n${os.hostname()}\n`);
  fs.mkdirSync(`${dir}/a`);
  fs.writeFileSync(`${dir}/a/terraform.tfstate`, '{}');
  fs.writeFileSync(`${dir}/a/.terraform.tfstate.lock.info`, 'null');
  fs.mkdirSync(`${dir}/b`);
  fs.writeFileSync(`${dir}/b/terraform.tfstate`, '{}');
  fs.writeFileSync(
    `${dir}/b/.terraform.tfstate.lock.info`,
    JSON.stringify({ ID: 'x', Operation: 'OperationTypeApply', Who: { a: 1 }, Created: ['y'] }),
  );
  for (const [i, text] of HOSTILE_TEXT.entries())
    fs.writeFileSync(`${dir}/hostile-${i}-${text.replace(/\//g, '_')}.lock`, `${process.pid}\n${text}\n`);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('untrusted lock files', () => {
  it('list in the library with every shown field as text', async () => {
    const { locks } = await storeOf(dir, '?depth=3').list();
    expect(locks.map((l) => l.name)).toContain('good.lock');
    for (const l of locks) expect(textFieldsAreText(l as never), l.name).toEqual([]);
    const info = (await storeOf(dir, '?depth=3').inspect('b/.terraform.tfstate.lock.info'))!;
    expect(info.details).toContainEqual(['Who', '']);
  });

  it('list in the CLI with holders’ text escaped', async () => {
    const ls = await runCli(['ls', `file://${dir}?depth=3`], {});
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toContain('good.lock');
    expect(ls.stdout).not.toMatch(RAW_UNSAFE);
  });
});

describe('trail times of lock files', () => {
  it('shows a back-dated forged line’s time as reported: one file of lines has no time per line', async () => {
    const back = new Date(Date.now() - 2 * 3_600_000).toISOString();
    fs.mkdirSync(`${dir}/.lockboard`, { recursive: true });
    const line = { id: 'f', at: back, event: 'force-released', lock: 'good.lock', reason: 'back-dated' };
    fs.appendFileSync(`${dir}/.lockboard/audit.jsonl`, `${JSON.stringify(line)}\n{"at":{"x":1},"event":1}\n`);
    const read = await storeOf(dir).readAudit(new Date(Date.now() - 3 * 3_600_000), new Date(Date.now() + 60_000));
    const forged = trustAuditRecords(read).find((e) => e.reason === 'back-dated')!;
    expect(forged).toMatchObject({ at: back, at_from: 'reported', verified: false });
    expect(read).toHaveLength(1);
  });
});
