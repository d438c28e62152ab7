// The formats Cloud Storage sources hold: the object formats any object store holds alike (lib/lock/shared-formats.ts,
// read by lib/lock/objects/formats), Lockboard's and Terraform's among them. No format of its own.
import { OBJECT_FORMATS, toolFormats } from '../../shared-formats';
import type { FormatDeclaration } from '../types';

export const gcsFormats: readonly FormatDeclaration[] = [...toolFormats('lockboard', 'terraform'), ...OBJECT_FORMATS];
