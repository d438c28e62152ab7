// The formats Azure Blob Storage sources hold: a blob lease is the lock (its holder, where a tool says, in metadata).
import { toolFormats } from '../../shared-formats';
import { declareFormats, type FormatDeclaration } from '../types';

export const AZURE_OWN_FORMATS = declareFormats([
  {
    id: 'azure-lease',
    label: 'Blob lease',
    words: 'A leased blob (WebJobs singletons, tools that lease a blob): the lease is the lock, its holder unknown.',
    formerly: 'lease',
  },
]);
export const azureFormats: readonly FormatDeclaration[] = [
  ...AZURE_OWN_FORMATS,
  ...toolFormats('lockboard', 'terraform'),
];
