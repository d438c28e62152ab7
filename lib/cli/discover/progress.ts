// Progress of `lockboard discover` on a terminal: one line on stderr, rewritten as roots are listed; nothing when
// stderr is not a terminal (a script's log gets the report only).
import { escapeText } from '../../text/safe-text';
import type { Progress } from './walk';

export function progressLine(stream: NodeJS.WriteStream): { tell: Progress; done(): void } {
  if (!stream.isTTY) return { tell: () => {}, done: () => {} };
  let shown = false;
  return {
    tell(p) {
      const line = `discover ${p.target}: ${p.listed}/${p.roots} listed, ${p.sampled} read, ${p.requests} requests`;
      stream.write(`\r\x1b[K${escapeText(line).slice(0, (stream.columns || 80) - 1)}`);
      shown = true;
    },
    done() {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}
