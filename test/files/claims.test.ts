// Webhook delivery claims in a lock directory: made once (O_EXCL), and those over two days old removed by the next
// console that claims (at most hourly), never anything else in the folder: a file that is not a claim's name, a
// symbolic link, or a claim made within the two days.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOf, tempDir, until } from './tools';

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const THREE_DAYS_AGO = new Date(Date.now() - 3 * 86_400_000);
const DAY_AGO = new Date(Date.now() - 86_400_000);

describe('claims in a lock directory', () => {
  it('removes claims over two days old on the next claim, and nothing else', async () => {
    const first = storeOf(dir);
    expect(await first.claim('notify-old')).toBe(true);
    expect(await first.claim('notify-old')).toBe(false);
    expect(await first.claim('notify-yesterday')).toBe(true);
    const claims = path.join(dir, '.lockboard', 'claims');
    fs.utimesSync(path.join(claims, 'notify-old'), THREE_DAYS_AGO, THREE_DAYS_AGO);
    fs.utimesSync(path.join(claims, 'notify-yesterday'), DAY_AGO, DAY_AGO);
    fs.writeFileSync(path.join(claims, 'notes.txt'), 'an operator’s file\n');
    fs.utimesSync(path.join(claims, 'notes.txt'), THREE_DAYS_AGO, THREE_DAYS_AGO);
    fs.symlinkSync('/etc/hostname', path.join(claims, 'notify-link'));
    fs.lutimesSync(path.join(claims, 'notify-link'), THREE_DAYS_AGO, THREE_DAYS_AGO);

    // another console (a new store: its first claim prunes)
    const second = storeOf(dir);
    expect(await second.claim('notify-new')).toBe(true);
    await until(() => !fs.existsSync(path.join(claims, 'notify-old')) || undefined, 'the old claim removed');
    expect(fs.readdirSync(claims).sort()).toEqual(['notes.txt', 'notify-link', 'notify-new', 'notify-yesterday']);
    expect(fs.readFileSync('/etc/hostname', 'utf8').length).toBeGreaterThan(0);
    // removed, it may be claimed anew (two days on, the event is past every replica's look-back)
    expect(await second.claim('notify-yesterday')).toBe(false);
  });
});
