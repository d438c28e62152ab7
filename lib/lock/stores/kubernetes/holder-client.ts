// The Pods and Nodes holders name, read through client-node's CoreV1Api: a page of 500 at a time, only the few fields
// the verdict reads kept (holders.ts). Errors keep the apiserver's status, so a 403 becomes "unknown, grant …".
import type { CoreV1Api } from '@kubernetes/client-node';
import type { HolderApi, NodeFacts, PodFacts } from './holder-types';

const PAGE = 500;
const iso = (t: Date | string | undefined) => (t instanceof Date ? t.toISOString() : t);

/** A list of the one object named (a name no object has lists nothing). */
const only = (name: string | undefined) => (name ? { fieldSelector: `metadata.name=${name}` } : {});

type Page<T> = { items: T[]; metadata?: { _continue?: string } };

async function all<T, U>(read: (token?: string) => Promise<Page<T>>, keep: (x: T) => U): Promise<U[]> {
  const out: U[] = [];
  let token: string | undefined;
  do {
    const page = await read(token);
    out.push(...page.items.map(keep));
    token = page.metadata?._continue || undefined;
  } while (token);
  return out;
}

export function holderClient(core: CoreV1Api, call: <T>(fn: () => Promise<T>) => Promise<T>): HolderApi {
  return {
    listPods: (namespace, name) =>
      all(
        (token) =>
          call(() =>
            core.listNamespacedPod({ namespace, limit: PAGE, ...only(name), ...(token ? { _continue: token } : {}) }),
          ),
        (p): PodFacts => ({
          name: p.metadata?.name ?? '',
          ...(p.status?.phase ? { phase: p.status.phase } : {}),
          ...(p.metadata?.deletionTimestamp ? { deleting: iso(p.metadata.deletionTimestamp) } : {}),
          ...(p.metadata?.deletionGracePeriodSeconds !== undefined
            ? { graceSeconds: p.metadata.deletionGracePeriodSeconds }
            : {}),
          ...(p.spec?.nodeName ? { nodeName: p.spec.nodeName } : {}),
        }),
      ),
    listNodes: (name) =>
      all(
        (token) => call(() => core.listNode({ limit: PAGE, ...only(name), ...(token ? { _continue: token } : {}) })),
        (n): NodeFacts => {
          const ready = n.status?.conditions?.find((c) => c.type === 'Ready')?.status;
          return { name: n.metadata?.name ?? '', ...(ready ? { ready } : {}) };
        },
      ),
  };
}
