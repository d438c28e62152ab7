// Holds on Redis: Lockboard's own value (JSON, the hold's owner and reason) set with SET NX PX, the command every
// SET-NX family takes its lock with (redis-py, node-redlock, go-redsync, bsm/redislock, Laravel): their contenders
// find the key taken and wait; Redis ends the hold by itself when PX runs out.
import type { HoldFormat, HoldPlan, StoreHolds } from '../../hold-types';
import { holdOwner } from '../../hold-marker';
import type { OpenOptions, SourceSpec } from '../types';
import type { RedisClientLike } from './conn';

const REDIS_HOLD: HoldFormat = {
  id: 'redis',
  label: 'a Redis SET NX PX key',
  maxMs: 366 * 86_400_000,
  maxWords: 'PX, in milliseconds; Lockboard takes durations up to 366 days',
  endsItself: true,
  fits: () => true,
};

type Connect = (spec: SourceSpec, o: OpenOptions) => Promise<{ client: RedisClientLike; close: () => Promise<void> }>;

function valueOf(plan: HoldPlan): string {
  const ttl = plan.untilMs - plan.sinceMs;
  return JSON.stringify({
    format: 'lockboard/1',
    identity: holdOwner(plan.operator, plan.untilMs),
    purpose: plan.reason,
    acquired_ms: plan.sinceMs,
    ttl_ms: ttl,
    refresh_ms: ttl,
  });
}

export function redisHolds(connect: Connect): StoreHolds {
  return {
    formats: [REDIS_HOLD],
    async place(spec, o, plan) {
      const { client, close } = await connect(spec, o);
      const send = client as unknown as { sendCommand(args: string[]): Promise<unknown> };
      try {
        const ttl = String(plan.untilMs - plan.sinceMs);
        return (await send.sendCommand(['SET', plan.name, valueOf(plan), 'NX', 'PX', ttl])) === 'OK';
      } finally {
        await close();
      }
    },
  };
}
