// lockboard <store> init [SOURCE]: creates what Lockboard needs in a store if absent (PostgreSQL's lock tables,
// DynamoDB's audit table…), through the store's own definition in the registry. Each store's help says what.
import { definitionByKind, parseSource } from '../lock/stores';
import { EXIT, parseFlags, UsageError } from './common';

export function initCommand(kind: string, help: string, options: { schema?: boolean } = {}) {
  return async (argv: string[]): Promise<number> => {
    const { values, positionals } = parseFlags(kind, argv, {
      ...(options.schema ? { schema: { type: 'string' as const } } : {}),
      help: { type: 'boolean', short: 'h', default: false },
    });
    if (values.help) {
      console.log(help);
      return EXIT.ok;
    }
    const [sub, url, extra] = positionals;
    if (sub !== 'init')
      throw new UsageError(`Unknown subcommand ${JSON.stringify(sub ?? '')}: use "lockboard ${kind} init SOURCE".`);
    if (extra !== undefined) throw new UsageError(`Unexpected argument ${JSON.stringify(extra)}.`);
    const definition = definitionByKind(kind);
    let spec;
    if (url !== undefined) {
      try {
        spec = parseSource(url, process.env);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      if (spec.kind !== definition.kind) throw new UsageError(`Expected a ${definition.form} source, got ${spec.id}.`);
    }
    const schema = (values as { schema?: string }).schema;
    try {
      console.log(await definition.init!(spec, { env: process.env, role: 'cli', ...(schema ? { schema } : {}) }));
    } catch (err) {
      if ((err as { code?: string }).code === 'USAGE') throw new UsageError((err as Error).message);
      throw err;
    }
    return EXIT.ok;
  };
}
