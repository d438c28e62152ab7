// The sources a caller may list: those where some lock may lie in their grants (the selector, listings, audit trails).
import 'server-only';
import { ApiError } from './api-error';
import { sourceInScope, type Access } from './auth/access';
import { ALL_SOURCES, resolveSources, sources, type Selection, type Source } from './sources';

/** The configured sources some grant of `access` reaches. */
export function sourcesFor(access: Access): Source[] {
  return sources().filter((s) => sourceInScope(access, s));
}

/** resolveSources within the caller's sources: a source outside them is answered as one not configured. */
export function resolveSourcesFor(access: Access, source?: string, prefix?: string): Selection {
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
