'use client';
// "Holds only": the list's own filter (the server's text match over each lock's owner, paged there) set to the words
// every hold's owner field carries ("alice (lockboard hold until …)", lib/lock/hold-marker.ts).
const HOLD_WORDS = 'lockboard hold until';

export function HoldsFilter({ text, onText }: { text: string; onText: (text: string) => void }) {
  const on = text.trim().toLowerCase() === HOLD_WORDS;
  return (
    <button
      type="button"
      aria-pressed={on}
      onClick={() => onText(on ? '' : HOLD_WORDS)}
      data-testid="holds-filter"
      className={`rounded-md px-2 py-1 text-sm ring-1 ring-inset ${on ? 'bg-violet-100 ring-violet-400 dark:bg-violet-900' : 'ring-zinc-300 dark:ring-zinc-600'}`}
    >
      Holds only
    </button>
  );
}
