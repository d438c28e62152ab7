// Kubernetes sources: `kubernetes://NAMESPACE` (one namespace) or `kubernetes://` (every namespace), with
// `?context=NAME` (a kubeconfig context) and `?audit=NAMESPACE` (where the lockboard-audit Lease is). Credentials are
// never in the URL: they come from the kubeconfig or the pod's service account, as kubectl finds them.
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export interface KubeSource {
  namespace?: string;
  context?: string;
  audit?: string;
  display: string;
}

export function parseKubeSource(raw: string): KubeSource {
  const m = /^kubernetes:\/\/([^/?#]*)\/?(?:\?([^#]*))?$/i.exec(raw);
  if (!m)
    throw new Error(
      'Expected kubernetes://NAMESPACE (or kubernetes:// for every namespace), e.g. kubernetes://default',
    );
  const namespace = m[1] ? decodeURIComponent(m[1]) : undefined;
  if (namespace !== undefined && !DNS_LABEL.test(namespace))
    throw new Error(`${JSON.stringify(namespace)} is not a namespace name (lower-case letters, digits and "-")`);
  const query = new URLSearchParams(m[2] ?? '');
  for (const key of query.keys())
    if (key !== 'context' && key !== 'audit')
      throw new Error(`Unknown parameter ?${key}=: a Kubernetes source takes ?context=NAME and ?audit=NAMESPACE`);
  const context = query.get('context') ?? undefined;
  const audit = query.get('audit') ?? undefined;
  if (audit !== undefined && !DNS_LABEL.test(audit))
    throw new Error(`?audit=${audit} is not a namespace name (lower-case letters, digits and "-")`);
  const shown = new URLSearchParams({ ...(context ? { context } : {}), ...(audit ? { audit } : {}) }).toString();
  return {
    ...(namespace ? { namespace } : {}),
    ...(context ? { context } : {}),
    ...(audit ? { audit } : {}),
    display: `kubernetes://${namespace ?? ''}${shown ? `?${shown}` : ''}`,
  };
}
