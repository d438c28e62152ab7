// A hold: a lock taken on purpose by an operator, with a reason and an end, written in the contender's own format so
// the contender waits by itself (issue #60). A store that can hold says so with its definition's optional `hold`.
import type { OpenOptions, SourceSpec } from './stores/types';

/** One format a store can write a hold in. The first of a store's formats that `fits` a name is its default. */
export interface HoldFormat {
  /** The format's id, as `--format` names it and views show it (`terraform`, `redis`, `lockboard`). */
  id: string;
  label: string;
  /** The longest hold the format or the store can express, and that limit in words (a usage error names it). */
  maxMs: number;
  maxWords: string;
  /** The longest reason the format can carry, where shorter than the general 500 characters. */
  reasonMax?: number;
  /** The store ends the hold at `until` by itself (a TTL, a lease); false: someone must end it (Terraform). */
  endsItself: boolean;
  /** Whether a lock of this name is written in this format by its contenders (`.tflock` for Terraform). */
  fits(name: string): boolean;
  /** A hold in this format needs an acknowledgement: the flag that gives it, and why (a usage error without it). */
  ack?: { flag: string; words: string };
  /** Session-bound (an advisory lock, a named lock): why it lives only as long as the session that took it. */
  session?: string;
}

/** What a store is asked to write: every field already checked against the format. */
export interface HoldPlan {
  name: string;
  format: HoldFormat;
  operator: string;
  reason: string;
  /** On the store's clock, milliseconds. */
  sinceMs: number;
  untilMs: number;
}

export interface StoreHolds {
  formats: readonly HoldFormat[];
  /**
   * Writes the hold under the store's own create-only precondition. Resolves false when the name is taken (nothing
   * written); the caller then names the holder.
   */
  place(spec: SourceSpec, o: OpenOptions, plan: HoldPlan): Promise<boolean>;
}
