// The formats S3 sources hold: the object formats any object store holds alike (lib/lock/shared-formats.ts), Terraform's
// .tflock and Lockboard's among them. No format of its own.
import { OBJECT_FORMATS, toolFormats } from '../../shared-formats';
import type { FormatDeclaration } from '../types';

export const s3Formats: readonly FormatDeclaration[] = [...toolFormats('lockboard', 'terraform'), ...OBJECT_FORMATS];
