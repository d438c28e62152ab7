// Text a lock's holder wrote, shown safely: isolated from the surrounding text's direction (<bdi>), with every
// control, bidi and zero-width character shown escaped and marked, so `deploy-prod` and `deploy-prod\u{200b}` differ.
import { textParts } from '@/lib/text/safe-text';

export function SafeText({ text, className }: { text: string; className?: string }) {
  const parts = textParts(text);
  const hidden = parts.filter((p) => p.unsafe).length;
  return (
    <bdi
      className={className}
      {...(hidden
        ? { title: `Contains ${hidden} hidden or control character${hidden === 1 ? '' : 's'}, shown escaped` }
        : {})}
    >
      {parts.map((p, i) =>
        p.unsafe ? (
          <mark
            key={i}
            data-unsafe-char={p.code}
            className="rounded-sm bg-amber-200 px-0.5 font-mono text-amber-950 dark:bg-amber-800 dark:text-amber-50"
          >
            {p.text}
          </mark>
        ) : (
          p.text
        ),
      )}
    </bdi>
  );
}
