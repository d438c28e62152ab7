// A page of Leases read within a byte budget. A Lease can be as large as etcd lets it (1.5 MiB by default: 256 KiB of
// annotations and a holderIdentity of any length), so 500 of them written by whoever may update Leases would be
// 750 MiB in one response. The list is read as it streams: past the budget the request is dropped and the page asked
// again with a tenth of the limit (the apiserver's own `continue` makes a short page as good as a full one); a single
// Lease past the budget is counted and not read, the listing going on from the `continue` its list metadata (sent
// before the items) names. The budget is far above any page of ordinary Leases (500 of them are about 300 KiB).
import { request, type RequestOptions } from 'node:https';
import { KubeRequestError, type Lease, type LeasePage } from './lease';

const LIST_BUDGET_BYTES = 8 * 1024 * 1024;

type Read = { body: string } | { over: string; status: number };

/** GET `url`, stopping once more than `budget` bytes came: the whole body, or its head when it was cut. */
function getBounded(url: URL, options: RequestOptions, budget: number): Promise<Read> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      ...options,
      method: 'GET',
      headers: { ...options.headers, accept: 'application/json' },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= budget) return void chunks.push(chunk);
        const head = Buffer.concat(chunks).toString('utf8', 0, Math.min(budget, 64 * 1024));
        req.destroy();
        resolve({ over: head, status: res.statusCode ?? 0 });
      });
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode === 200) return resolve({ body });
        let message = `HTTP ${res.statusCode}`;
        try {
          message = (JSON.parse(body) as { message?: string }).message ?? message;
        } catch {
          // not a Status: its HTTP status says it
        }
        reject(new KubeRequestError(res.statusCode ?? 0, message));
      });
      res.on('error', reject);
    });
    req.end();
  });
}

interface BoundedListOptions {
  /** The list URL without `limit` and `continue`. */
  url: URL;
  /** TLS and credentials as kubectl's kubeconfig gives them (client-node's applyToHTTPSOptions). */
  https: () => Promise<RequestOptions>;
  limit: number;
  continue?: string;
  budget?: number;
  /** Each request sent, with the bytes it read. */
  onRequest?: (bytes: number) => void;
}

/** One page (maybe shorter than `limit`, with `next`), and how many Leases were too large to read. */
export async function boundedList(o: BoundedListOptions): Promise<LeasePage & { unread: number }> {
  const budget = o.budget ?? LIST_BUDGET_BYTES;
  for (let limit = o.limit; ; limit = Math.max(1, Math.floor(limit / 10))) {
    const url = new URL(o.url);
    url.searchParams.set('limit', String(limit));
    if (o.continue) url.searchParams.set('continue', o.continue);
    const read = await getBounded(url, await o.https(), budget);
    o.onRequest?.('body' in read ? Buffer.byteLength(read.body) : budget);
    if ('body' in read) {
      const list = JSON.parse(read.body) as {
        items?: Lease[];
        metadata?: { resourceVersion?: string; continue?: string };
      };
      return {
        items: Array.isArray(list.items) ? list.items : [],
        resourceVersion: list.metadata?.resourceVersion ?? '0',
        ...(list.metadata?.continue ? { next: list.metadata.continue } : {}),
        unread: 0,
      };
    }
    if (read.status !== 200) throw new KubeRequestError(read.status, `HTTP ${read.status} (a body over the budget)`);
    if (limit > 1) continue;
    // one Lease alone is over the budget: counted, and the listing goes on after it
    const meta = /^\{.*?"metadata":\{([^{}]*)\}/s.exec(read.over)?.[1] ?? '';
    const field = (k: string) => new RegExp(`"${k}":"([^"]*)"`).exec(meta)?.[1];
    const next = field('continue');
    return { items: [], resourceVersion: field('resourceVersion') ?? '0', ...(next ? { next } : {}), unread: 1 };
  }
}
