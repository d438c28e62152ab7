// A hold's records in a real trail (the emulator's GCS bucket) told to webhooks through the trail's event path: placed
// and ended, each with the operator, the reason and the hold's end, in the JSON body and in Slack's words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { endHold, placeHold } from '@/lib/lock/hold';
import { openSource, parseSource } from '@/lib/lock/stores';
import type { SourcedAuditRecord } from '@/lib/server/audit/trails';
import { renderBody, slackMessage } from '@/lib/server/notify/render';
import { eventOfRecord } from '@/lib/server/notify/trail-events';
import type { Source } from '@/lib/server/sources';

let emulator: Emulator;
let env: Record<string, string>;
beforeAll(async () => {
  emulator = await startEmulator({ buckets: ['tf-state'] });
  env = { LOCKBOARD_GCS_ENDPOINT: emulator.url };
});
afterAll(() => emulator?.close());

describe('hold events for webhooks', () => {
  it('tells hold-placed and hold-ended from the trail with who, why and until', async () => {
    const spec = parseSource('gs://tf-state/', env);
    const o = { env, role: 'cli' as const };
    const name = 'prod/default.tflock';
    const reason = 'INC-123 state surgery';
    const { plan } = await placeHold(spec, o, { name, operator: 'alice', reason, forMs: 3_600_000 });
    await endHold(spec, o, { name, operator: 'bob' });
    const store = await openSource(spec, o);
    const records = await store.readAudit(new Date(Date.now() - 3_600_000), new Date(Date.now() + 3_600_000), name);
    await store.close();
    const source = { id: 'gs://tf-state/', prefix: '', bucketId: 'tf-state', store: 'gcs' } as Source;
    const events = records
      .map((r) =>
        eventOfRecord(
          'tf-state',
          { ...r, bucket: 'tf-state', source: source.id } as SourcedAuditRecord,
          source,
          undefined,
        ),
      )
      .filter((e) => e?.event.startsWith('hold-'));
    const until = new Date(plan.untilMs).toISOString();
    expect(events.map((e) => [e!.event, e!.actor, e!.reason, e!.until])).toEqual([
      ['hold-placed', 'alice', reason, until],
      ['hold-ended', 'bob', reason, until],
    ]);
    expect(JSON.parse(renderBody('json', events[0]!))).toMatchObject({ event: 'hold-placed', until, reason });
    const slack = (slackMessage(events[0]!).blocks[0] as { text: { text: string } }).text.text;
    expect(slack).toContain('*Lock held on purpose*');
    expect(slack).toContain(`*Until:* \`${until}\``);
  });
});
