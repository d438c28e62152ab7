'use client';
// The version exactly as `lockboard release --version` takes it, and the whole command, each with a copy button: the
// console and the CLI name a version the same way.
import { useState } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import { releaseCommand } from '@/lib/text/format';

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      aria-label={label}
      className="ml-2 rounded px-1.5 py-0.5 text-xs ring-1 ring-inset ring-zinc-300 hover:bg-zinc-100 dark:ring-zinc-600 dark:hover:bg-zinc-800"
      onClick={() =>
        void navigator.clipboard?.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

export function CliVersion({ lock }: { lock: Pick<LockInfo, 'name' | 'version' | 'source' | 'bucket'> }) {
  if (!lock.version) return null;
  const command = releaseCommand(lock);
  return (
    <div className="space-y-1 text-sm" data-testid="cli-version">
      <div>
        <span className="text-zinc-500">CLI version: </span>
        <code className="break-all font-mono" data-testid="cli-version-string">
          {lock.version}
        </code>
        <CopyButton text={lock.version} label="Copy the version lockboard release --version takes" />
      </div>
      <div>
        <code className="break-all font-mono text-xs text-zinc-600 dark:text-zinc-400" data-testid="cli-command">
          {command}
        </code>
        <CopyButton text={command} label="Copy the lockboard release command" />
      </div>
    </div>
  );
}
