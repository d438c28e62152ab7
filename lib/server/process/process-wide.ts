// State that must be one per console process. Next.js bundles server code once per layer (the pages' server
// rendering, the route handlers, instrumentation), and each bundle has its own copy of every module: a module-level
// map would be one per layer. The locks page then kept a second watcher, a second index and a second connection per
// source beside the API routes' (at 1 000 000 Redis locks: 1.35 GB instead of 0.72 GB, each listing made twice).
// Kept on globalThis under a registered symbol, every copy of the module finds the same one.

/** The process's one `name`, made by `make` the first time any bundle asks. */
export function processWide<T>(name: string, make: () => T): T {
  const g = globalThis as unknown as Record<symbol, unknown>;
  const key = Symbol.for(`lockboard.${name}`);
  if (!(key in g)) g[key] = make();
  return g[key] as T;
}
