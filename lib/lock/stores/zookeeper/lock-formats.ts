// The formats ZooKeeper sources hold: the recipes' ephemeral sequential nodes under a lock path.
import { toolFormats } from '../../shared-formats';
import { declareFormats, type FormatDeclaration } from '../types';

export const ZOOKEEPER_OWN_FORMATS = declareFormats([
  {
    id: 'curator-mutex',
    label: 'Curator InterProcessMutex',
    words: 'Curator’s lock: the lowest _c_…-lock- node holds.',
  },
  {
    id: 'curator-rwlock',
    label: 'Curator read-write lock',
    words: 'Curator’s InterProcessReadWriteLock __READ__/__WRIT__ nodes.',
  },
  { id: 'curator-semaphore', label: 'Curator semaphore', words: 'Curator’s InterProcessSemaphoreV2 leases.' },
  {
    id: 'curator-leader-latch',
    label: 'Curator LeaderLatch',
    words: 'Curator’s LeaderLatch: the lowest latch- node leads.',
  },
  { id: 'curator-leader-selector', label: 'Curator LeaderSelector', words: 'Curator’s LeaderSelector over a mutex.' },
  { id: 'kazoo-lock', label: 'Kazoo Lock', words: 'Kazoo’s Lock: the lowest __lock__ node holds.' },
  { id: 'kazoo-rwlock', label: 'Kazoo read-write lock', words: 'Kazoo’s ReadLock/WriteLock nodes.' },
  { id: 'kazoo-semaphore', label: 'Kazoo Semaphore', words: 'Kazoo’s Semaphore leases under a lock path.' },
  { id: 'kazoo-lease', label: 'Kazoo NonBlockingLease', words: 'Kazoo’s lease node with its holder and end.' },
]);
export const zookeeperFormats: readonly FormatDeclaration[] = [...ZOOKEEPER_OWN_FORMATS, ...toolFormats('lockboard')];
