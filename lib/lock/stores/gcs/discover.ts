// Discovery on Cloud Storage: `gs://` lists the project's buckets (a page of up to 1 000 per request), `gs://BUCKET`
// names one; each bucket is then listed as `ls gs://BUCKET/` lists it. Terraform's gcs backend keeps its lock at
// PREFIX/WORKSPACE.tflock in its bucket.
import type { Storage } from '@google-cloud/storage';
import { oneContainer, narrowToFolder, type Discovery } from '../discovery';

export function gcsDiscovery(storageFor: (env: Record<string, string | undefined>) => Promise<Storage>): Discovery {
  return {
    target: 'gs:// (every bucket) or gs://BUCKET',
    targetOf: () => 'gs://', // a configured bucket's project: every bucket
    async roots(target, c) {
      const one = oneContainer(target, 'gs');
      if (one) return { roots: [one], problems: [] };
      const storage = await storageFor(c.env);
      const roots: string[] = [];
      let pageToken: string | undefined;
      do {
        if (!c.spend()) return { roots, problems: [], capped: true };
        const maxResults = Math.min(1000, c.limit - roots.length);
        const [buckets, next] = await storage.getBuckets({ autoPaginate: false, maxResults, pageToken });
        roots.push(...buckets.map((b) => `gs://${b.name}/`));
        pageToken = (next as { pageToken?: string } | null)?.pageToken;
      } while (pageToken && roots.length < c.limit);
      return { roots, problems: [], capped: pageToken !== undefined };
    },
    narrow: narrowToFolder,
    terraform(type, a) {
      if (type !== 'gcs') return undefined;
      if (!a.bucket)
        return { sources: [], problems: ['backend "gcs" names no bucket (give its -backend-config file)'] };
      const prefix = a.prefix ? `${a.prefix.replace(/^\/+|\/+$/g, '')}/` : '';
      return { sources: [`gs://${a.bucket}/${prefix}`], problems: [] };
    },
  };
}
