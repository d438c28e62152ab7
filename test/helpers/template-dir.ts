// A server's freshly initialised data directory, made once per machine and copied for each test server: initdb
// (PostgreSQL) and mariadb-install-db take seconds of CPU each, a copy of their output a fraction of one. Every test
// still gets a server of its own on its own copy, so nothing is shared between files but the starting bytes.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Copies the template named by `key` (what made it: the tool's version and its arguments) into `dest` (created by
 * `init` into an empty folder the first time, then kept in the temporary directory). `cp -a`: owners and modes
 * stay as `init` left them (PostgreSQL refuses a data directory it does not own).
 */
export function copyTemplate(key: string, dest: string, init: (dir: string) => void): void {
  const template = join(tmpdir(), `lockboard-template-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
  if (!existsSync(template)) {
    // made aside and renamed into place: a file running beside this one never copies a half-made template
    const making = `${template}.${process.pid}-${randomBytes(4).toString('hex')}`;
    mkdirSync(making);
    try {
      init(making);
      renameSync(making, template);
    } catch (err) {
      rmSync(making, { recursive: true, force: true });
      if (!existsSync(template)) throw err; // another file's rename won the race: use its template
    }
  }
  const copy = spawnSync('cp', ['-a', `${template}/.`, dest], { encoding: 'utf8' });
  if (copy.status !== 0) throw new Error(`copying the data directory template ${template} failed: ${copy.stderr}`);
}
