// Which cluster and namespace a source means before any SDK is loaded, read as kubectl reads them (the first
// KUBECONFIG file, else ~/.kube/config, else the pod's service account): the context (`?context=` or the current
// one), its cluster's server and its namespace. Sources parse with it, so that `kubernetes://` (whose audit Lease is
// in the kubeconfig's namespace) and `kubernetes://default` name one trail when it is one Lease. Only the shape
// kubectl writes is read (block YAML or JSON); anything else resolves to undefined and the source keeps its own trail.
import { existsSync, readFileSync } from 'node:fs';
import { credentialsOf } from './client';

const SA_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

interface KubeTarget {
  /** The cluster's server URL (or `in-cluster`). */
  server: string;
  namespace?: string;
}

type Entry = Record<string, string>;
interface Config {
  current?: string;
  contexts: Entry[];
  clusters: Entry[];
}

const unquote = (v: string): string => {
  const s = v.replace(/\s+#.*$/, '').trim();
  return /^(['"]).*\1$/.test(s) ? s.slice(1, -1) : s;
};

/** kubectl's block YAML: top-level `current-context`, and the scalar fields of each `contexts`/`clusters` item. */
function readYaml(text: string): Config {
  const out: Config = { contexts: [], clusters: [] };
  let section: 'contexts' | 'clusters' | undefined;
  let item: Entry | undefined;
  let itemIndent = 0;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*(#|$)/.test(raw)) continue;
    const top = /^([A-Za-z-]+):\s*(.*)$/.exec(raw);
    if (top) {
      section = top[1] === 'contexts' || top[1] === 'clusters' ? top[1] : undefined;
      if (top[1] === 'current-context') out.current = unquote(top[2]!);
      item = undefined;
      continue;
    }
    if (!section) continue;
    const m = /^(\s*)(- +)?([A-Za-z_-]+):\s*(.*)$/.exec(raw);
    if (!m) continue;
    const indent = m[1]!.length;
    if (m[2]) {
      item = {};
      out[section].push(item);
      itemIndent = indent + m[2].length;
    }
    if (!item) continue;
    const [key, value] = [m[3]!, unquote(m[4]!)];
    // `name` only at the item's own level (an extension may have one); other fields wherever they first appear
    if (value === '' || key in item || (key === 'name' && (m[2] ? false : indent !== itemIndent))) continue;
    item[key] = value;
  }
  return out;
}

function readJson(text: string): Config {
  const j = JSON.parse(text) as Record<string, unknown>;
  const flat = (list: unknown, inner: string): Entry[] =>
    (Array.isArray(list) ? list : []).map((e: Record<string, unknown>) => {
      const entry: Entry = {};
      for (const [k, v] of Object.entries({ ...(e?.[inner] as object), name: e?.name }))
        if (typeof v === 'string') entry[k] = v;
      return entry;
    });
  const current = j['current-context'];
  return {
    ...(typeof current === 'string' ? { current } : {}),
    contexts: flat(j.contexts, 'context'),
    clusters: flat(j.clusters, 'cluster'),
  };
}

/** The server and namespace kubectl would use for `context` (default: the current one), or undefined. */
export function kubeTargetOf(env: Record<string, string | undefined>, context?: string): KubeTarget | undefined {
  const found = credentialsOf(env);
  if (found === undefined) return undefined;
  try {
    if (found === 'in-cluster') {
      if (context !== undefined) return undefined;
      const namespace = existsSync(SA_NAMESPACE) ? readFileSync(SA_NAMESPACE, 'utf8').trim() : undefined;
      return { server: 'in-cluster', ...(namespace ? { namespace } : {}) };
    }
    const text = readFileSync(found, 'utf8');
    const config = text.trimStart().startsWith('{') ? readJson(text) : readYaml(text);
    const name = context ?? config.current;
    const ctx = config.contexts.find((c) => c.name === name);
    const server = ctx && config.clusters.find((c) => c.name === ctx.cluster)?.server;
    if (!server) return undefined;
    return { server, ...(ctx.namespace ? { namespace: ctx.namespace } : {}) };
  } catch {
    return undefined; // unreadable: the source keeps a trail of its own, and opening it names the problem
  }
}
