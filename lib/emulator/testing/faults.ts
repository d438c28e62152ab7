// Fault injection: latency, error statuses, dropped responses, connection resets, clock offset, write-rate limit.
import { invalid } from '../errors';

export interface FaultRule {
  /** Only requests with this HTTP method (any when absent). */
  method?: string;
  /** Only requests whose path (without query) matches this regular expression. */
  path?: string;
  /** Only requests whose raw query string (URL-encoded, without `?`) matches this regular expression. */
  query?: string;
  /** Added latency, uniformly drawn from [min, max] milliseconds. */
  latencyMs?: [number, number];
  /** Fraction of matching requests answered with `errorStatus` before anything is applied. */
  errorRate?: number;
  errorStatus?: 409 | 429 | 500 | 503;
  /** Fraction of matching requests whose change is applied but whose response is never sent. */
  dropResponseRate?: number;
  /** Fraction of matching requests whose connection is reset before anything is applied. */
  resetRate?: number;
  /** Apply the rule to the next `times` matching requests only, then drop it (a deterministic fault). */
  times?: number;
}

export interface FaultConfig {
  rules?: FaultRule[];
  /** Added to the emulator's clock: the times it stamps and its `Date` header. */
  clockOffsetMs?: number;
  /** Per-object write-rate limit like GCS (about one mutation per second per name). */
  rateLimit?: { enabled: boolean; perSecond?: number; burst?: number };
  /** Seed for the random draws of rates and latencies, so a faulty run can be replayed. */
  seed?: number;
}

interface FaultDecision {
  latencyMs: number;
  errorStatus?: number;
  drop: boolean;
  reset: boolean;
}

export class Faults {
  rules: FaultRule[] = [];
  clockOffsetMs = 0;
  rateLimit = { enabled: false, perSecond: 1, burst: 2 };
  seed: number | undefined;
  private random: () => number = Math.random;

  constructor(config: FaultConfig = {}) {
    this.set(config);
  }

  /** Replaces the parts of the configuration that `config` names. */
  set(config: FaultConfig): void {
    validateConfig(config);
    if (config.rules !== undefined) this.rules = config.rules.map((r) => ({ ...r }));
    if (config.clockOffsetMs !== undefined) this.clockOffsetMs = config.clockOffsetMs;
    if (config.rateLimit !== undefined) this.rateLimit = { ...this.rateLimit, ...config.rateLimit };
    if (config.seed !== undefined) {
      this.seed = config.seed;
      this.random = seededRandom(config.seed);
    }
  }

  clear(): void {
    this.rules = [];
    this.clockOffsetMs = 0;
    this.rateLimit = { enabled: false, perSecond: 1, burst: 2 };
    this.seed = undefined;
    this.random = Math.random;
  }

  toJSON(): FaultConfig {
    return { rules: this.rules, clockOffsetMs: this.clockOffsetMs, rateLimit: this.rateLimit, seed: this.seed };
  }

  decide(method: string, path: string, query = ''): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, drop: false, reset: false };
    for (const rule of this.rules) {
      if (rule.method && rule.method.toUpperCase() !== method) continue;
      if (rule.path && !pattern(rule.path).test(path)) continue;
      if (rule.query && !pattern(rule.query).test(query)) continue;
      if (rule.times !== undefined) {
        if (rule.times <= 0) continue;
        rule.times -= 1;
      }
      if (rule.latencyMs) {
        const [min, max] = rule.latencyMs;
        decision.latencyMs += min + this.random() * (max - min);
      }
      if (rule.resetRate && this.random() < rule.resetRate) decision.reset = true;
      if (rule.errorRate && this.random() < rule.errorRate) decision.errorStatus ??= rule.errorStatus ?? 503;
      if (rule.dropResponseRate && this.random() < rule.dropResponseRate) decision.drop = true;
    }
    if (this.rules.some((r) => r.times === 0)) this.rules = this.rules.filter((r) => r.times !== 0);
    return decision;
  }
}

/** mulberry32: a small, fast generator whose sequence is fixed by its 32-bit seed. */
/** A small seeded PRNG (mulberry32): the same seed replays the same draws. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const compiled = new Map<string, RegExp>();
/** Rules are matched on every request: compile each pattern once. */
function pattern(source: string): RegExp {
  let re = compiled.get(source);
  if (!re) {
    re = new RegExp(source);
    if (compiled.size > 1_000) compiled.clear();
    compiled.set(source, re);
  }
  return re;
}

const MAX_PATTERN_LENGTH = 256;

function validateConfig(config: FaultConfig): void {
  const rate = (value: unknown, field: string): void => {
    if (value !== undefined && (typeof value !== 'number' || value < 0 || value > 1)) {
      throw invalid(`Fault field ${field} must be a number between 0 and 1, got ${JSON.stringify(value)}`);
    }
  };
  if (config.rules !== undefined && !Array.isArray(config.rules)) throw invalid('Fault field rules must be an array');
  if ((config.rules?.length ?? 0) > 100) throw invalid('Fault field rules must have at most 100 rules');
  for (const rule of config.rules ?? []) {
    if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
      throw invalid(`Each fault rule must be an object, got ${JSON.stringify(rule)}`);
    }
    rate(rule.errorRate, 'errorRate');
    rate(rule.dropResponseRate, 'dropResponseRate');
    rate(rule.resetRate, 'resetRate');
    if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times > 0)) {
      throw invalid(`Fault field times must be a positive integer, got ${JSON.stringify(rule.times)}`);
    }
    if (rule.errorStatus !== undefined && ![409, 429, 500, 503].includes(rule.errorStatus)) {
      throw invalid(`Fault field errorStatus must be 409, 429, 500 or 503, got ${JSON.stringify(rule.errorStatus)}`);
    }
    const lat = rule.latencyMs;
    if (lat !== undefined && (!Array.isArray(lat) || lat.length !== 2 || !(lat[0] >= 0 && lat[1] >= lat[0]))) {
      throw invalid('Fault field latencyMs must be [min, max] with 0 <= min <= max');
    }
    for (const field of ['path', 'query'] as const) {
      const pattern = rule[field];
      if (pattern === undefined) continue;
      if (typeof pattern !== 'string' || pattern.length > MAX_PATTERN_LENGTH) {
        throw invalid(`Fault field ${field} must be a regular expression of at most ${MAX_PATTERN_LENGTH} characters`);
      }
      try {
        new RegExp(pattern);
      } catch {
        throw invalid(`Fault field ${field} is not a valid regular expression: ${pattern}`);
      }
    }
  }
  if (config.clockOffsetMs !== undefined && !Number.isFinite(config.clockOffsetMs)) {
    throw invalid('Fault field clockOffsetMs must be a finite number of milliseconds');
  }
  if (config.seed !== undefined && !Number.isInteger(config.seed)) {
    throw invalid(`Fault field seed must be an integer, got ${JSON.stringify(config.seed)}`);
  }
}

/** Token bucket per object name: `burst` writes at once, refilled at `perSecond`. */
export class WriteRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  take(key: string, now: number, perSecond: number, burst: number): boolean {
    const b = this.buckets.get(key) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * perSecond);
    b.at = now;
    if (this.buckets.size > 100_000) this.buckets.clear();
    this.buckets.set(key, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}
