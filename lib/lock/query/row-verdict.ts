// A row's verdict as read: the kind at once, the sentence and the evidence rendered from the index's marked copy
// (verdict-intern.ts) only when asked, with the figures of the moment of reading ("expires in 12 s" is never a pass
// old). A pass over a million rows asking only for the kind renders nothing.
import { hasFigures, renderFigures, settleOf, type FigureTimes } from '../verdict/figures';
import type { Evidence, LockVerdict, Verdict } from '../verdict/verdict';
import type { IndexVerdict } from './verdict-intern';

export class RowVerdict implements LockVerdict {
  constructor(
    private readonly kept: IndexVerdict,
    /** The row's expiry, last update and creation (ms, the store's clock; NaN: none). */
    private readonly times: FigureTimes,
  ) {}

  get verdict(): Verdict {
    return this.kept.verdict;
  }

  /** Rendered on the store's clock now. */
  get sentence(): string {
    return renderFigures(this.kept.sentence, this.times, Date.now() + this.kept.skewMs);
  }

  /** Each piece as it was read (its figures at its own time). */
  get evidence(): Evidence[] {
    return this.kept.evidence.map((e) => ({ ...e, fact: renderFigures(e.fact, this.times, Date.parse(e.at)) }));
  }

  /** As of the read (a wait that runs from the expiry, figures.ts, rendered at the read's time). */
  get settleMs(): number | undefined {
    const read = this.kept.evidence[0] ? Date.parse(this.kept.evidence[0].at) : Number.NaN;
    return settleOf(this.kept, this.times, read);
  }

  /** The sentence with its figures still marks, where it has any: the browser renders it on every tick. */
  get sentenceMarks(): string | undefined {
    return hasFigures(this.kept.sentence) ? this.kept.sentence : undefined;
  }

  toJSON(): LockVerdict {
    const { verdict, sentence, evidence, settleMs } = this;
    return { verdict, sentence, evidence, ...(settleMs ? { settleMs } : {}) };
  }
}
