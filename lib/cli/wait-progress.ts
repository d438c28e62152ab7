// lockboard run's progress while it waits for a lock: who holds it, until when, and every store error it retries.
import type { LockInfo } from '../lock';
import { escapeText } from '../text/safe-text';
import { formatDuration } from './common';

/** While waiting: one line updated in place on a terminal, one line per holder change otherwise. */
export class WaitProgress {
  private last = '';
  private shown = false;
  private readonly started = Date.now();
  private readonly tty = Boolean(process.stderr.isTTY);

  constructor(
    private readonly name: string,
    private readonly quiet: boolean,
  ) {}

  update(holder: LockInfo): void {
    if (this.quiet) return;
    const purpose = holder.purpose ? ` (${holder.purpose})` : '';
    const stale = holder.expiresAt
      ? `stale at ${holder.expiresAt} unless refreshed`
      : 'never stale by itself: an operator must clear it';
    const key = `${holder.identity}|${holder.version ?? holder.generation}`;
    const version = holder.versionLabel ?? `generation ${holder.generation}`;
    const line = escapeText(
      `Waiting for ${this.name}: held by ${holder.identity ?? 'unknown'}${purpose}, ${version}, ${stale}`,
    );
    if (this.tty) {
      process.stderr.write(`\r\x1b[2K${line} [waited ${formatDuration(Date.now() - this.started)}]`);
      this.shown = true;
    } else if (key !== this.last) {
      process.stderr.write(`${line}\n`);
    }
    this.last = key;
  }

  /** A failed storage request that will be retried: said once per distinct error, never silently. */
  storageError(error: Error, retryInMs: number): void {
    const key = `error|${error.message}`;
    if (key === this.last) return;
    this.last = key;
    if (this.tty && this.shown) process.stderr.write('\n');
    this.shown = false;
    process.stderr.write(
      escapeText(
        `Storage request failed for ${this.name}: ${error.message}. Retrying every few seconds ` +
          `(next in ${formatDuration(retryInMs)}); pass --timeout to give up (exit 3), or Ctrl-C.`,
      ) + '\n',
    );
  }

  done(): void {
    if (this.tty && this.shown) process.stderr.write('\n');
    this.shown = false;
  }
}
