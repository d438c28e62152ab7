// The look of a health chip (the server filters, sorts and counts: lib/lock/query).

export function chip(active: boolean): string {
  return `inline-flex items-center gap-1 rounded-full px-2 py-1 text-sm ring-1 ring-inset ${active ? 'ring-blue-600 bg-blue-50 dark:bg-blue-950' : 'ring-zinc-300 dark:ring-zinc-700'}`;
}
