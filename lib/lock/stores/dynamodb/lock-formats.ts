// The formats DynamoDB sources hold: one item per lock.
import { toolFormats } from '../../shared-formats';
import { declareFormats, type FormatDeclaration } from '../types';

export const DYNAMODB_OWN_FORMATS = declareFormats([
  {
    id: 'dynamodb-lock-client',
    label: 'DynamoDB Lock Client',
    words: 'Amazon’s DynamoDB Lock Client item: owner, lease duration and a record version number it heartbeats.',
  },
]);
export const dynamodbFormats: readonly FormatDeclaration[] = [
  ...DYNAMODB_OWN_FORMATS,
  ...toolFormats('lockboard', 'terraform'),
];
