// The Pods and Nodes that Lease holders name (docs/verdict.md): client-go writes `<pod>_<uuid>` as a holder's
// identity, and a hostNetwork holder's hostname is its Node's name. Read once per namespace per listing pass (one Pod
// list, and one Node list per pass), never a read per Lease. A list this identity may not read (403) is remembered as
// such: the verdict says which grant would settle it, never an error.
import type { HolderApi, NodeFacts, PodFacts } from './holder-types';
import { KubeRequestError } from './lease';

export type { NodeFacts, PodFacts } from './holder-types';

export type Looked<T> = { ok: Map<string, T> } | { forbidden: string };

/** client-go's `<pod>_<uuid>`: the part before the last `_`, or undefined for an identity of another shape. */
export function podNameOf(identity: string): string | undefined {
  const m = /^(.+)_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.exec(identity);
  return m?.[1];
}

/**
 * One pass's reads: each namespace's Pods and the Nodes at most once, shared by every Lease of the pass. A lookup
 * asked with `maxAgeMs` reads again when the pass's read is older, and the pass shares it; asked for now (0) with the
 * one name it needs, it reads that object alone and keeps nothing (an inspection: one Pod, not a namespace's).
 */
export class HolderLookups {
  private pods = new Map<string, Read<Looked<PodFacts>>>();
  private nodes: Read<Looked<NodeFacts>> | undefined;

  constructor(private readonly api: HolderApi) {}

  /** A listing pass starts: the next lookups read again. */
  newPass(): void {
    this.pods.clear();
    this.nodes = undefined;
  }

  podsOf(namespace: string, maxAgeMs = Infinity, only?: string): Promise<Looked<PodFacts>> {
    if (maxAgeMs === 0 && only) return looked(() => this.api.listPods(namespace, only), `pods in ${namespace}`);
    let r = this.pods.get(namespace);
    if (!r || Date.now() - r.at >= maxAgeMs)
      this.pods.set(namespace, (r = readNow(() => this.api.listPods(namespace), `pods in ${namespace}`)));
    return r.p;
  }

  allNodes(maxAgeMs = Infinity, only?: string): Promise<Looked<NodeFacts>> {
    if (maxAgeMs === 0 && only) return looked(() => this.api.listNodes(only), 'nodes (cluster-wide)');
    if (!this.nodes || Date.now() - this.nodes.at >= maxAgeMs)
      this.nodes = readNow(() => this.api.listNodes(), 'nodes (cluster-wide)');
    return this.nodes.p;
  }
}

interface Read<T> {
  at: number;
  p: Promise<T>;
}

function readNow<T extends { name: string }>(read: () => Promise<T[]>, what: string): Read<Looked<T>> {
  return { at: Date.now(), p: looked(read, what) };
}

async function looked<T extends { name: string }>(read: () => Promise<T[]>, what: string): Promise<Looked<T>> {
  try {
    return { ok: new Map((await read()).map((x) => [x.name, x])) };
  } catch (err) {
    if (err instanceof KubeRequestError && (err.status === 403 || err.status === 401)) return { forbidden: what };
    throw err;
  }
}
