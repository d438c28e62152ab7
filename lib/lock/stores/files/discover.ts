// Discovery of lock files: `file:///DIR` is walked as `ls file:///DIR?depth=N` walks it (N = DISCOVER_DEPTH unless
// the target gives ?depth=), its lock files grouped by the subdirectory they are in.
import { isAbsolute, relative, sep } from 'node:path';
import { selfRoot, TargetError, type Discovery } from '../discovery';
import { parseFilesSource } from './source';

/** How deep a directory is walked by default (lock-file conventions live near the top: /var/lock, .git, run/). */
const DISCOVER_DEPTH = 3;

export const filesDiscovery: Discovery = {
  target: 'file:///DIR[?depth=N]',
  async roots(target) {
    let s: ReturnType<typeof parseFilesSource>;
    try {
      s = parseFilesSource(target);
    } catch (err) {
      throw new TargetError((err as Error).message);
    }
    const depth = new URL(target).searchParams.has('depth') ? s.depth : DISCOVER_DEPTH;
    return selfRoot(`file://${s.dir}${depth ? `?depth=${depth}` : ''}`);
  },
  // a configured directory, to its own depth where it gives one (else discovery's)
  targetOf: (url) => {
    const s = parseFilesSource(url);
    return `file://${s.dir}${new URL(url).searchParams.has('depth') ? `?depth=${s.depth}` : ''}`;
  },
  // a directory walked to depth N lists its subdirectory D to depth N - (D's levels below it)
  covers(configured, found) {
    const [a, b] = [parseFilesSource(configured), parseFilesSource(found)];
    const below = relative(a.dir, b.dir);
    if (below.startsWith('..') || isAbsolute(below)) return false;
    return (below ? below.split(sep).length : 0) + b.depth <= a.depth;
  },
  narrow(root, group) {
    if (!group.endsWith('/')) return undefined;
    const s = parseFilesSource(root);
    const depth = s.depth - 1;
    return `file://${s.dir}/${encodeURI(group.slice(0, -1))}${depth > 0 ? `?depth=${depth}` : ''}`;
  },
};
