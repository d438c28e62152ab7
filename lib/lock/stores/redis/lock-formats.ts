// The formats Redis sources hold: one key per lock, each library's value and TTL (redis/formats.ts reads them).
import { toolFormats } from '../../shared-formats';
import { declareFormats, type FormatDeclaration } from '../types';

export const REDIS_OWN_FORMATS = declareFormats([
  { id: 'redis-py', label: 'redis-py Lock', words: 'redis-py’s Lock: a random token with a PX expiry.' },
  {
    id: 'python-redis-lock',
    label: 'python-redis-lock',
    words: 'python-redis-lock’s lock:NAME key and its signal list.',
  },
  {
    id: 'redlock',
    label: 'node-redlock',
    words: 'node-redlock’s key on one or more servers, a random value with a TTL.',
  },
  { id: 'redislock', label: 'bsm/redislock', words: 'Go bsm/redislock’s key: a base64 token with a TTL.' },
  { id: 'redsync', label: 'go-redsync', words: 'go-redsync’s key: a base64 value with a TTL.' },
  { id: 'redisson', label: 'Redisson RLock', words: 'Redisson’s reentrant lock: a hash of holder:thread to count.' },
  {
    id: 'sidekiq-unique-jobs',
    label: 'sidekiq-unique-jobs',
    words: 'sidekiq-unique-jobs’ digest keys of a unique job.',
  },
  {
    id: 'setnx',
    label: 'SETNX expiry-timestamp lock',
    words: 'The classic SETNX lock whose value is its expiry time.',
  },
]);
export const redisFormats: readonly FormatDeclaration[] = [
  ...REDIS_OWN_FORMATS,
  ...toolFormats('lockboard', 'laravel'),
];
