// Errors told apart by a registered brand, not by class identity. Next.js bundles this code once per layer (pages,
// route handlers, instrumentation) and the console shares one store per source across them (process-wide.ts), so an
// error a store throws may come from another copy of its class: `instanceof` by identity said no, and a client's
// mistake became a 500. Each branded class (subclasses too) answers `instanceof` by its brand.
export function branded<C extends abstract new (...args: never[]) => Error>(cls: C, name: string): C {
  const key = Symbol.for(`lockboard.error.${name}`);
  Object.defineProperty(cls.prototype, key, { value: true });
  Object.defineProperty(cls, Symbol.hasInstance, {
    value: (v: unknown) => typeof v === 'object' && v !== null && key in v,
  });
  return cls;
}
