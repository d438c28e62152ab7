// The apiserver through npm @kubernetes/client-node 1.4 (2.x does not load on Node 20), with credentials found as
// kubectl finds them: KUBECONFIG, then ~/.kube/config, then the pod's service account; `?context=` picks a context.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LockOptionsError } from '../../errors';
import { missingSdk } from '../types';
import type { RequestOptions } from 'node:https';
import { boundedList } from './bounded-list';
import { holderClient } from './holder-client';
import { KubeRequestError, type Lease, type LeaseApi, type LeasePage } from './lease';

type ClientNode = typeof import('@kubernetes/client-node');

async function loadSdk(): Promise<ClientNode> {
  try {
    return await import('@kubernetes/client-node');
  } catch {
    throw missingSdk('kubernetes:// sources', '@kubernetes/client-node@1.4');
  }
}

const NO_CREDENTIALS =
  'no Kubernetes credentials: set KUBECONFIG, write ~/.kube/config (as kubectl uses), or run in a pod with a service account';

/** Where kubectl would find credentials: a kubeconfig file, or the pod's service account (undefined: none). */
export function credentialsOf(env: Record<string, string | undefined>): string | undefined {
  const files = (env.KUBECONFIG ?? '').split(':').filter((f) => f && existsSync(f));
  const home = env.HOME ? join(env.HOME, '.kube', 'config') : undefined;
  if (files[0]) return files[0];
  if (home && existsSync(home)) return home;
  return env.KUBERNETES_SERVICE_HOST ? 'in-cluster' : undefined;
}

/** The kubeconfig kubectl would use, or a message naming what to set. */
function loadConfig(k8s: ClientNode, env: Record<string, string | undefined>, context?: string) {
  const kc = new k8s.KubeConfig();
  const found = credentialsOf(env);
  if (found === undefined) throw new LockOptionsError(NO_CREDENTIALS);
  if (found === 'in-cluster') kc.loadFromCluster();
  else kc.loadFromFile(found);
  if (context !== undefined) {
    const names = kc.getContexts().map((c) => c.name);
    if (!names.includes(context))
      throw new LockOptionsError(`no context "${context}" in the kubeconfig; contexts: ${names.join(', ') || 'none'}`);
    kc.setCurrentContext(context);
  }
  return kc;
}

/** An ApiException as the apiserver's status and message (a Status object's `message` where it sent one). */
function requestError(err: unknown, server: string): Error {
  const e = err as { code?: unknown; body?: unknown; message?: string };
  if (typeof e.code !== 'number') {
    return Object.assign(new Error(`Cannot reach the Kubernetes apiserver ${server}: ${e.message ?? String(err)}`), {
      code: 'ECONNREFUSED',
    });
  }
  let message = e.message ?? `HTTP ${e.code}`;
  try {
    const body = (typeof e.body === 'string' ? JSON.parse(e.body) : e.body) as { message?: string } | undefined;
    if (body?.message) message = body.message;
  } catch {
    // not JSON: the exception's own message
  }
  return new KubeRequestError(e.code, message);
}

/** `listBudget`: the bytes one list response may have (bounded-list.ts; tests make it small). */
export async function connectKubernetes(
  env: Record<string, string | undefined>,
  context?: string,
  listBudget?: number,
): Promise<LeaseApi & { namespace: string | undefined }> {
  const k8s = await loadSdk();
  const kc = loadConfig(k8s, env, context);
  const server = kc.getCurrentCluster()?.server ?? 'in-cluster';
  const api = kc.makeApiClient(k8s.CoordinationV1Api);
  const ns = kc.getContextObject(kc.getCurrentContext())?.namespace;
  const https = async (): Promise<RequestOptions> => {
    const opts: RequestOptions = {};
    await kc.applyToHTTPSOptions(opts);
    return opts;
  };
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    leases.requests++;
    try {
      return await fn();
    } catch (err) {
      throw requestError(err, server);
    }
  };
  const leases: LeaseApi & { namespace: string | undefined } = {
    server,
    namespace: ns,
    requests: 0,
    async list(namespace, o): Promise<LeasePage> {
      const path = namespace ? `/namespaces/${encodeURIComponent(namespace)}/leases` : '/leases';
      try {
        return await boundedList({
          url: new URL(`${server}/apis/coordination.k8s.io/v1${path}`),
          https,
          limit: o.limit,
          ...(o.continue ? { continue: o.continue } : {}),
          ...(listBudget ? { budget: listBudget } : {}),
          onRequest: (bytes) => {
            leases.requests++;
            leases.largestRead = Math.max(leases.largestRead ?? 0, bytes);
          },
        });
      } catch (err) {
        throw err instanceof KubeRequestError ? err : requestError(err, server);
      }
    },
    async read(namespace, name) {
      try {
        return (await call(() => api.readNamespacedLease({ name, namespace }))) as Lease;
      } catch (err) {
        if (err instanceof KubeRequestError && err.status === 404) return null;
        throw err;
      }
    },
    async replace(lease) {
      const { name, namespace } = lease.metadata;
      const body = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', ...lease };
      return (await call(() => api.replaceNamespacedLease({ name, namespace, body: body as never }))) as Lease;
    },
    async create(lease) {
      const body = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', ...lease };
      return (await call(() =>
        api.createNamespacedLease({ namespace: lease.metadata.namespace, body: body as never }),
      )) as Lease;
    },
    watch: (namespace, resourceVersion, h) => watchLeases(k8s, kc, leases, { namespace, resourceVersion, h }),
  };
  leases.holders = holderClient(kc.makeApiClient(k8s.CoreV1Api), call);
  return leases;
}

/** A watch of Leases in one namespace (or all), from `resourceVersion`, with bookmarks; counted as one request. */
async function watchLeases(
  k8s: Awaited<ReturnType<typeof loadSdk>>,
  kc: ReturnType<typeof loadConfig>,
  leases: { requests: number },
  o: { namespace: string | undefined; resourceVersion: string; h: Parameters<LeaseApi['watch']>[2] },
): Promise<() => void> {
  leases.requests++;
  const path = o.namespace
    ? `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(o.namespace)}/leases`
    : '/apis/coordination.k8s.io/v1/leases';
  const query = { resourceVersion: o.resourceVersion, allowWatchBookmarks: true };
  const controller = await new k8s.Watch(kc).watch(
    path,
    query,
    (type, obj: unknown) => {
      const status = type === 'ERROR' ? (obj as { code?: number; message?: string }) : undefined;
      o.h.event(type, status ? undefined : (obj as Lease), status);
    },
    (err: unknown) => o.h.done(err),
  );
  return () => controller.abort();
}
