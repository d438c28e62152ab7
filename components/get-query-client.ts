import { QueryCache, QueryClient, isServer } from '@tanstack/react-query';
import { ApiClientError } from '@/lib/console/queries';

/** A session that ended: to the sign-in page, back here afterwards. */
export function signInAgain(): void {
  if (isServer) return;
  const here = `${window.location.pathname}${window.location.search}`;
  // a full load on purpose: the sign-in page is server-rendered and the client cache belongs to the old session
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  window.location.assign(`/login?callbackUrl=${encodeURIComponent(here)}`);
}

function makeQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (err) => err instanceof ApiClientError && err.status === 401 && signInAgain(),
    }),
    defaultOptions: {
      queries: { staleTime: 1_000, retry: 1 },
    },
  });
}

let browserClient: QueryClient | undefined;

/** A new client per request on the server; one client for the life of the page in the browser. */
export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserClient ??= makeQueryClient();
  return browserClient;
}
