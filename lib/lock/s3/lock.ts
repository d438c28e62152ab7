// Lockboard's lock on S3 (stores.md): created with If-None-Match: *, refreshed by a PUT with If-Match on the current
// ETag (a new body each time: a fresh nonce and sequence, so no two writes share an ETag), released and taken over by
// one conditional PUT of the next state. The object is never deleted by its holders: a released marker keeps the
// fencing token, which grows by one at every new holder. Loss is pushed through `signal` by a monotonic deadline.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { LockLostError, LockOptionsError, type LockLostReason } from '../errors';
import { MAX_TIMER_MS, monotonicNow } from '../time';
import { s3Status, type S3Objects } from './objects';
import { lockboardFields } from './store';

export interface S3LockState {
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

export class S3Lock extends EventTarget {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private refreshTimer: NodeJS.Timeout | undefined;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private lastOk: number;
  private busy: Promise<void> = Promise.resolve();
  private done = false;

  constructor(
    private readonly objects: S3Objects,
    private readonly settings: S3LockSettings,
    private state: S3LockState,
  ) {
    super();
    if (settings.ttlMs > MAX_TIMER_MS) throw new LockOptionsError(`Expected \`ttlMs\` to be at most ${MAX_TIMER_MS}`);
    this.signal = this.controller.signal;
    this.lastOk = monotonicNow();
    this.armDeadline();
    this.scheduleRefresh();
  }

  get name(): string {
    return this.settings.name;
  }

  /** The fencing token: larger for every later holder of this lock. */
  get fencingToken(): string {
    return String(this.state.token);
  }

  get etag(): string {
    return this.state.etag;
  }

  get isHealthy(): boolean {
    return !this.done && monotonicNow() < this.lastOk + this.safeTtl();
  }

  /** Loss is declared this long before the TTL runs out, so the holder stops before anyone may take over. */
  private safeTtl(): number {
    return this.settings.ttlMs - Math.max(1_000, this.settings.ttlMs / 8);
  }

  private armDeadline(): void {
    clearTimeout(this.deadlineTimer);
    const ms = Math.max(0, this.lastOk + this.safeTtl() - monotonicNow());
    this.deadlineTimer = setTimeout(() => this.lose('refresh-failed', 'no refresh succeeded in time'), ms);
  }

  private scheduleRefresh(): void {
    this.refreshTimer = setTimeout(() => {
      this.busy = this.refresh().finally(() => {
        if (!this.done) this.scheduleRefresh();
      });
    }, this.settings.refreshIntervalMs);
  }

  /** One conditional PUT with the next sequence; a 412 is reconciled with one GET (a lost response is ours). */
  async refresh(): Promise<void> {
    if (this.done) return;
    const started = monotonicNow();
    const seq = this.state.seq + 1;
    const nonce = randomBytes(8).toString('hex');
    const body = heldBody(this.settings, this.state.token, seq, this.state.acquiredMs, nonce);
    try {
      const etag = await this.objects.put(this.settings.name, body, { ifMatch: this.state.etag });
      if (this.done) return;
      this.state = { ...this.state, etag, seq };
      this.lastOk = started;
      this.armDeadline();
    } catch (err) {
      const status = s3Status(err);
      if (status === 404) return this.lose('released-by-operator', 'the lock object was deleted');
      if (status !== 412) return; // 409, 5xx, network: the next refresh tries again; the deadline guards
      const current = await this.objects.get(this.settings.name).catch(() => undefined);
      if (current === undefined) return;
      const fields = current ? lockboardFields(current.body) : undefined;
      if (fields?.nonce === nonce) {
        // our own write whose response was lost
        this.state = { ...this.state, etag: current!.etag, seq };
        this.lastOk = started;
        return this.armDeadline();
      }
      if (!current || fields?.released === 'true') return this.lose('released-by-operator', 'an operator released it');
      this.lose('taken', `now held by ${fields?.identity ?? 'another writer'}`);
    }
  }

  private lose(reason: LockLostReason, detail: string): void {
    if (this.done) return;
    this.stop();
    const error = new LockLostError(this.settings.name, reason, detail);
    this.controller.abort(error);
    this.dispatchEvent(new CustomEvent('lost', { detail: error }));
  }

  private stop(): void {
    this.done = true;
    clearTimeout(this.refreshTimer);
    clearTimeout(this.deadlineTimer);
  }

  /** Writes the released marker (If-Match the current ETag), after any refresh in flight. */
  async release(): Promise<S3ReleaseOutcome> {
    if (this.done) return 'already-lost';
    clearTimeout(this.refreshTimer);
    await this.busy;
    if (this.done) return 'already-lost';
    this.stop();
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

  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }
}
