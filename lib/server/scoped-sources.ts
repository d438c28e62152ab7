// The sources a caller may list: those where some lock may lie in their grants (the selector, listings, audit trails),
// and the one selection of them that routes and pages alike make from `?source` / `?prefix`.
import 'server-only';
import { ApiError } from './api-error';
import { sourceInScope, type Access } from './auth/access';
import { ALL_SOURCES, resolveSources, sources, type Selection, type Source } from './sources';

/** The configured sources some grant of `access` reaches. */
export function sourcesFor(access: Access): Source[] {
  return sources().filter((s) => sourceInScope(access, s));
}

/** The caller's landing: all of their sources at once (what is gone or stalled anywhere is counted), or their only one. */
function landingFor(access: Access): Selection {
  const mine = sourcesFor(access);
  if (mine.length === 0) resolveSources(); // no source configured: its 400 names the settings
  return mine.length === 1 ? { id: mine[0]!.id, sources: mine } : { id: ALL_SOURCES, sources: mine };
}

/**
 * The selection asked for, within the caller's sources; none asked: their landing. A source outside them is answered
 * as one not configured (400), naming only theirs.
 */
export function selectionFor(access: Access, source?: string, prefix?: string): Selection {
  if (source === undefined && prefix === undefined) return landingFor(access);
  const chosen = resolveSources(source, prefix);
  const mine = chosen.sources.filter((s) => sourceInScope(access, s));
  if (chosen.id !== ALL_SOURCES && mine.length === 0) {
    const listed = sourcesFor(access).map((s) => s.id);
    throw new ApiError(
      'bad_request',
      `Source ${JSON.stringify(source ?? prefix)} is not configured; configured: ${listed.join(', ') || 'none you may see'} (or "all").`,
    );
  }
  return { id: chosen.id, sources: mine };
}
