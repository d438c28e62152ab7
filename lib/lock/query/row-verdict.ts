// A row's verdict as read: the kind at once, the sentence and the evidence rendered from the index's marked copy
// (verdict-intern.ts) only when asked, with the figures of the moment of reading ("expires in 12 s" is never a pass
// old). A pass over a million rows asking only for the kind renders nothing.
import { renderFigures } from '../verdict/figures';
import type { Evidence, LockVerdict, Verdict } from '../verdict/verdict';
import type { IndexVerdict } from './verdict-intern';

export class RowVerdict implements LockVerdict {
  constructor(
    private readonly kept: IndexVerdict,
    /** The row's expiry (ms, the store's clock; NaN: none). */
    private readonly expires: number,
  ) {}

  get verdict(): Verdict {
    return this.kept.verdict;
  }

  /** Rendered on the store's clock now. */
  get sentence(): string {
    return renderFigures(this.kept.sentence, this.expires, Date.now() + this.kept.skewMs);
  }

  /** Each piece as it was read (its figures at its own time). */
  get evidence(): Evidence[] {
    return this.kept.evidence.map((e) => ({ ...e, fact: renderFigures(e.fact, this.expires, Date.parse(e.at)) }));
  }

  get settleMs(): number | undefined {
    return this.kept.settleMs;
  }

  toJSON(): LockVerdict {
    const { verdict, sentence, evidence, settleMs } = this;
    return { verdict, sentence, evidence, ...(settleMs ? { settleMs } : {}) };
  }
}
