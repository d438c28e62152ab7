// lockboard why SOURCE NAME: the verdict on a lock's holder (gone, stalled, alive, unknown), its sentence and the
// evidence read, judged by the same code as the console (lib/lock/verdict). --settle looks twice where one read cannot
// judge (a renewal or an expiry moving needs two reads one interval apart).
import type { LockView } from '../lock/store';
import { openSource } from '../lock/stores';
import { verdictOf } from '../lock/verdict/verdict';
import { escapeText } from '../text/safe-text';
import { judgedLock, sentenceWithSettle } from './settle';
import { holdLine } from './hold-lines';
import { COMMON_HELP, COMMON_OPTIONS, EXIT, EXIT_CODES_HELP, parseFlags, UsageError } from './common';
import { SOURCE_LINES } from './help-stores';
import { resolveTarget } from './target';

const WHY_OPTIONS = { ...COMMON_OPTIONS, settle: { type: 'boolean' } } as const;

const WHY_HELP = `Usage: lockboard why SOURCE NAME [--json] [--settle]

SOURCE is one of:
${SOURCE_LINES('  ')}

Says why a lock is held: whether its holder is gone, stalled, alive or unknown, in one sentence, then the evidence
read beyond the lock's own bytes (a process in /proc, a database session, a Pod, renewals seen between two reads).

${COMMON_HELP}
  --json            print { name, source, verdict, sentence, evidence: [{ fact, from, at }] }
  --settle          where one read cannot judge (a renewal or an expiry moving), wait one interval and read again

Exit 0 when a lock is there, 10 when it is free, 13 when it is not a lock.

${EXIT_CODES_HELP}`;

export async function whyCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('why', argv, WHY_OPTIONS);
  if (values.help) {
    console.log(WHY_HELP);
    return EXIT.ok;
  }
  if (positionals.length > 2) throw new UsageError(`Expected SOURCE NAME, got ${positionals.length} arguments.`);
  const t = resolveTarget(values, positionals, { wantName: true });
  const store = await openSource(t.spec, { env: t.env, role: 'cli' });
  const lock = await judgedLock(store, t.name!, values.settle === true).finally(() => store.close());
  const code = !lock || lock.health === 'free' ? EXIT.free : !lock.releasable ? EXIT.notALock : EXIT.ok;
  const verdict = lock ? verdictOf(lock) : undefined;
  if (values.json) {
    const body = verdict
      ? {
          name: t.name,
          source: store.source,
          verdict: verdict.verdict,
          sentence: verdict.sentence,
          evidence: verdict.evidence,
        }
      : { name: t.name, source: store.source, verdict: null, sentence: sentenceOf(lock), evidence: [] };
    console.log(JSON.stringify(body, null, 2));
    return code;
  }
  console.log(escapeText((lock && sentenceWithSettle(lock)) ?? sentenceOf(lock)));
  const hold = lock && holdLine(lock, store.now());
  if (hold) console.log(escapeText(hold));
  for (const e of verdict?.evidence ?? []) console.log(escapeText(`  ${e.fact} — ${e.from} (${e.at})`));
  return code;
}

function sentenceOf(lock: LockView | null): string {
  if (!lock || lock.health === 'free') return 'Free: nothing holds it.';
  return `Not a lock: ${lock.note ?? 'never released by Lockboard'}.`;
}
