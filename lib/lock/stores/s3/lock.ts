// Lockboard's lock on S3 (docs/stores.md): created with If-None-Match: *, refreshed by a PUT with If-Match on the
// current ETag (a new body each time: a fresh nonce and sequence, so no two writes share an ETag), released and taken
// over by one conditional PUT of the next state. The object is never deleted by its holders: a released marker keeps
// the fencing token, which grows by one at every new holder. Loss is pushed through `signal` by a monotonic deadline.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { LockOptionsError } from '../../errors';
import { RefreshingLock, type RefreshResult } from '../../holding/refreshing-lock';
import { MAX_TIMER_MS } from '../../time';
import { s3Status, type S3Objects } from './objects';
import { lockboardFields } from './view';

interface S3LockState {
  token: bigint;
  etag: string;
  seq: number;
  acquiredMs: number;
}

export interface S3LockSettings {
  name: string;
  identity: string;
  purpose?: string;
  ttlMs: number;
  refreshIntervalMs: number;
}

/** The body of a held lock: every field a string, as in the GCS lock's metadata. */
export function heldBody(s: S3LockSettings, token: bigint, seq: number, acquiredMs: number, nonce: string): string {
  return JSON.stringify({
    format: 'lockboard/1',
    identity: s.identity,
    host: hostname(),
    pid: String(process.pid),
    ...(s.purpose ? { purpose: s.purpose } : {}),
    ttl_ms: String(s.ttlMs),
    refresh_ms: String(s.refreshIntervalMs),
    token: String(token),
    seq: String(seq),
    acquired_ms: String(Math.round(acquiredMs)),
    nonce,
  });
}

export type S3ReleaseOutcome = 'released' | 'already-lost';

export class S3Lock extends RefreshingLock {
  constructor(
    private readonly objects: S3Objects,
    private readonly settings: S3LockSettings,
    private state: S3LockState,
  ) {
    if (settings.ttlMs > MAX_TIMER_MS) throw new LockOptionsError(`Expected \`ttlMs\` to be at most ${MAX_TIMER_MS}`);
    // S3's clock has whole seconds: loss is declared at least a second before the TTL
    super(settings.name, settings.ttlMs, settings.refreshIntervalMs, Math.max(1_000, settings.ttlMs / 8));
  }

  /** The fencing token: larger for every later holder of this lock. */
  get fencingToken(): string {
    return String(this.state.token);
  }

  get etag(): string {
    return this.state.etag;
  }

  /** One conditional PUT with the next sequence; a 412 is reconciled with one GET (a lost response is ours). */
  protected async refreshOnce(): Promise<RefreshResult> {
    const seq = this.state.seq + 1;
    const nonce = randomBytes(8).toString('hex');
    const body = heldBody(this.settings, this.state.token, seq, this.state.acquiredMs, nonce);
    try {
      const etag = await this.objects.put(this.settings.name, body, { ifMatch: this.state.etag });
      this.state = { ...this.state, etag, seq };
      return 'ok';
    } catch (err) {
      const status = s3Status(err);
      if (status === 404) return { lost: 'released-by-operator', detail: 'the lock object was deleted' };
      if (status !== 412) return 'retry'; // 409, 5xx, network: the next refresh tries again
      const current = await this.objects.get(this.settings.name).catch(() => undefined);
      if (current === undefined) return 'retry';
      const fields = current ? lockboardFields(current.body) : undefined;
      if (fields?.nonce === nonce) {
        this.state = { ...this.state, etag: current!.etag, seq }; // our own write whose response was lost
        return 'ok';
      }
      if (!current || fields?.released === 'true')
        return { lost: 'released-by-operator', detail: 'an operator released it' };
      return { lost: 'taken', detail: `now held by ${fields?.identity ?? 'another writer'}` };
    }
  }

  /** Writes the released marker (If-Match the current ETag), after any refresh in flight. */
  async release(): Promise<S3ReleaseOutcome> {
    if (!(await this.stopForRelease())) return 'already-lost';
    const marker = JSON.stringify({
      format: 'lockboard/1',
      released: 'true',
      token: String(this.state.token),
      nonce: randomBytes(8).toString('hex'),
    });
    try {
      await this.objects.put(this.settings.name, marker, { ifMatch: this.state.etag });
      return 'released';
    } catch (err) {
      if (s3Status(err) === 412 || s3Status(err) === 404) return 'already-lost';
      throw err;
    }
  }
}
