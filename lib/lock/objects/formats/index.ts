// The format registry: classifies one object as data, other (not a lock), or a lock of a recognised format, most
// specific format first (docs/formats.md). Adding a format is one module here and one test.
import { certmagic } from './certmagic';
import { gcslock } from './gcslock';
import { gmutex } from './gmutex';
import { goGcslock } from './go-gcslock';
import { HUDI_LOCK, hudi } from './hudi';
import { lockboard } from './lockboard';
import { plain } from './plain';
import { pulumi } from './pulumi';
import { restic } from './restic';
import { ruby } from './ruby';
import { terraform } from './terraform';
import { MAX_BODY_BYTES, type FormatReading, type LockFormatModule, type ObjectView } from './types';
import { vault } from './vault';

export const FORMATS: readonly LockFormatModule[] = [
  terraform,
  pulumi,
  lockboard,
  vault,
  ruby,
  gcslock,
  gmutex,
  goGcslock,
  certmagic,
  hudi,
  restic,
  plain,
];

export type Classification =
  | { kind: 'data'; reason: string }
  | { kind: 'other'; reason: string }
  | { kind: 'lock'; format: LockFormatModule; reading: FormatReading };

const PULUMI_DATA = /(?:^|\/)\.pulumi\/(?:stacks|history|backups)\//;

/** Data objects are never locks, whatever else they look like. */
export function dataReason(view: Pick<ObjectView, 'name' | 'size'>): string | null {
  const { name } = view;
  if (name.endsWith('.tfstate') || name.endsWith('.tfstate.backup')) return 'Terraform state';
  if (PULUMI_DATA.test(name)) return 'Pulumi stack data';
  if (/(?:^|\/)\.hoodie\//.test(name) && !HUDI_LOCK.test(name)) return 'Hudi table data';
  if (view.size > MAX_BODY_BYTES) return `larger than ${MAX_BODY_BYTES / 1024} KiB`;
  return null;
}

/** Whether classifying this object needs its body (never for data objects or bodies over 64 KiB). */
export function needsBody(view: ObjectView): boolean {
  if (dataReason(view) !== null || view.name.endsWith('/')) return false;
  return FORMATS.some((f) => f.needsBody?.(view) ?? false);
}

export function classifyObject(view: ObjectView): Classification {
  const data = dataReason(view);
  if (data !== null) return { kind: 'data', reason: data };
  if (view.name.endsWith('/')) return { kind: 'other', reason: 'folder placeholder' };
  for (const format of FORMATS) {
    const reading = format.read(view);
    if (reading) return { kind: 'lock', format, reading };
  }
  return { kind: 'other', reason: 'no known lock format' };
}

export function formatById(id: string): LockFormatModule | undefined {
  return FORMATS.find((f) => f.id === id);
}

export { LOCKBOARD_FORMAT } from './lockboard';
export type { FormatReading, LockFormatModule, ObjectView } from './types';
