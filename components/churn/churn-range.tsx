'use client';
// The churn page's custom time range (UTC), checked before it is applied.
import { useState } from 'react';

const MAX_WINDOW_MS = 31 * 86_400_000;

/** Why a custom range cannot be applied, or null. Values are datetime-local strings read as UTC. */
function rangeProblem(from: string, to: string): string | null {
  if (!from || !to) return 'Enter both From and To (UTC), or choose Last 1h / 24h / 7d.';
  const a = Date.parse(`${from}Z`);
  const b = Date.parse(`${to}Z`);
  if (Number.isNaN(a) || Number.isNaN(b)) return 'From and To must be dates and times.';
  if (a >= b) return 'From must be before To.';
  if (b - a > MAX_WINDOW_MS) return 'Choose at most 31 days.';
  return null;
}

export function CustomRange({
  initial,
  onApply,
}: {
  initial: { from: string; to: string };
  onApply: (w: { from: string; to: string }) => void;
}) {
  const [from, setFrom] = useState(initial.from.slice(0, 16));
  const [to, setTo] = useState(initial.to.slice(0, 16));
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className="flex flex-wrap items-end gap-2 text-sm"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const why = rangeProblem(from, to);
        setProblem(why);
        if (!why) onApply({ from: new Date(`${from}Z`).toISOString(), to: new Date(`${to}Z`).toISOString() });
      }}
    >
      <TimeInput label="From (UTC)" value={from} onChange={setFrom} invalid={problem !== null} />
      <TimeInput label="To (UTC)" value={to} onChange={setTo} invalid={problem !== null} />
      <button type="submit" className="rounded-md px-3 py-1 ring-1 ring-inset ring-zinc-300 dark:ring-zinc-700">
        Apply
      </button>
      {problem && (
        <p role="alert" id="range-problem" className="w-full text-red-700 dark:text-red-300">
          {problem} The numbers below are still for the previous window.
        </p>
      )}
    </form>
  );
}

function TimeInput({
  label,
  value,
  onChange,
  invalid,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  invalid: boolean;
}) {
  return (
    <label>
      {label}
      <input
        type="datetime-local"
        value={value}
        aria-invalid={invalid}
        aria-describedby={invalid ? 'range-problem' : undefined}
        onChange={(e) => onChange(e.target.value)}
        className="ml-1 rounded border border-zinc-300 bg-transparent px-1 dark:border-zinc-600"
      />
    </label>
  );
}
