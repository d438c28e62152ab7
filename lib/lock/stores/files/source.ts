// file:///DIR[?depth=N][&audit=/other/dir]: the directory's own entries (depth 0), or N levels of subdirectories too
// (a repository's .git needs 2-3). Linux first: elsewhere there is no /proc, so holders are unknown and say so.
import path from 'node:path';

export interface FilesSource {
  dir: string;
  depth: number;
  audit: string;
  display: string;
}

export function parseFilesSource(url: string): FilesSource {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`${JSON.stringify(url)} is not a URL: use file:///absolute/dir`);
  }
  if (u.host && u.host !== 'localhost')
    throw new Error(`file://${u.host}/… names another host; use file:///absolute/dir (a network share mounted here)`);
  const dir = path.resolve(decodeURIComponent(u.pathname));
  if (!u.pathname || u.pathname === '/') throw new Error('file:/// needs a directory, e.g. file:///srv/lock');
  for (const key of u.searchParams.keys())
    if (key !== 'depth' && key !== 'audit') throw new Error(`unknown parameter "${key}": use ?depth=N or ?audit=/dir`);
  const depthText = u.searchParams.get('depth') ?? '0';
  const depth = Number(depthText);
  if (!/^\d+$/.test(depthText) || depth > 8) throw new Error(`?depth=${depthText}: use a whole number from 0 to 8`);
  const auditText = u.searchParams.get('audit');
  if (auditText !== null && !path.isAbsolute(auditText))
    throw new Error(`?audit=${auditText}: use an absolute directory, e.g. ?audit=/var/lib/lockboard`);
  const audit = auditText ?? path.join(dir, '.lockboard');
  const query = [depth ? `depth=${depth}` : '', auditText ? `audit=${auditText}` : ''].filter(Boolean).join('&');
  return { dir, depth, audit, display: `file://${dir}${query ? `?${query}` : ''}` };
}
