// The formats Kubernetes sources hold: coordination.k8s.io Leases.
import { toolFormats } from '../../shared-formats';
import { declareFormats, type FormatDeclaration } from '../types';

export const KUBERNETES_OWN_FORMATS = declareFormats([
  {
    id: 'client-go-lease',
    label: 'Leader election Lease',
    words: 'client-go’s LeaseLock: holderIdentity renewed every retry period.',
  },
  { id: 'lease', label: 'Lease', words: 'A Lease no known tool wrote: its holderIdentity and renewTime.' },
]);
export const kubernetesFormats: readonly FormatDeclaration[] = [...KUBERNETES_OWN_FORMATS, ...toolFormats('terraform')];
