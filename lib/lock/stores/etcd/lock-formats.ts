// The formats etcd sources hold: keys attached to a lease, granted in create-revision order.
import { declareFormats, type FormatDeclaration } from '../types';

export const ETCD_OWN_FORMATS = declareFormats([
  {
    id: 'etcd-mutex',
    label: 'etcd concurrency Mutex',
    words: 'etcd’s concurrency.Mutex (etcdctl lock): the lowest create revision holds.',
  },
  {
    id: 'etcd-election',
    label: 'etcd election',
    words: 'etcd’s concurrency.Election (etcdctl elect): the lowest revision leads.',
  },
  { id: 'etcd3-lock', label: 'etcd3 (Node) lock', words: 'The Node etcd3 client’s Lock: one key under a lease.' },
  { id: 'python-etcd3', label: 'python-etcd3 lock', words: 'python-etcd3’s Lock: /locks/NAME under a lease.' },
]);
export const etcdFormats: readonly FormatDeclaration[] = ETCD_OWN_FORMATS;
