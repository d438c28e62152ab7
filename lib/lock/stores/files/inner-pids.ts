// Pids of nested pid namespaces as the host sees them (docs/verdict.md): a pid written in a container is that
// container's pid, which the host's /proc lists under another number. `NSpid:` in /proc/<pid>/status gives a process's
// pid in each namespace from this /proc's down to its own; a pid missing from the host's list may be one of the
// inner ones. Read once per listing pass, and only when some pid was found missing.
import fs from 'node:fs';

/** Inner pid → the host pid of a process that has it in some nested namespace. */
export type InnerPids = Map<number, number>;

export function readInnerPids(): InnerPids {
  const out: InnerPids = new Map();
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    let status: string;
    try {
      status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const levels = /^NSpid:\s*(.*)$/m.exec(status)?.[1]?.trim().split(/\s+/) ?? [];
    // an inner pid equal to the host pid names nothing the host's list does not
    for (const inner of levels.slice(1))
      if (inner !== pid && !out.has(Number(inner))) out.set(Number(inner), Number(pid));
  }
  return out;
}
