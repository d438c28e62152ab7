// What the verdict reads of the Pods and Nodes Lease holders name (holders.ts), and the API that reads them.
export interface PodFacts {
  name: string;
  phase?: string;
  /** Its deletionTimestamp: when its grace period ends (its containers run until then). */
  deleting?: string;
  /** Its deletionGracePeriodSeconds, set with `deleting`. */
  graceSeconds?: number;
  nodeName?: string;
}

export interface NodeFacts {
  name: string;
  /** The Ready condition's status: "True", "False", "Unknown". */
  ready?: string;
}

/** What the store asks of the apiserver for holder evidence (client.ts). */
export interface HolderApi {
  /** Every Pod of the namespace, or only the one named (a field selector: the same `list` grant). */
  listPods(namespace: string, name?: string): Promise<PodFacts[]>;
  /** Every Node, or only the one named. */
  listNodes(name?: string): Promise<NodeFacts[]>;
}
