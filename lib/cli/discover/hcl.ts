// Terraform's backend blocks read with HashiCorp's own HCL parser (hcl v2 compiled to WebAssembly, the
// @cdktn/hcl2json package: no network, no terraform binary). Whatever HCL allows is read as Terraform reads it:
// heredocs, the three kinds of comment, nested blocks, templates in other attributes; a file Terraform would refuse
// is a problem naming its line. A `-backend-config` file (`*.tfbackend`) is attributes without a block.

export type Attributes = Record<string, string>;

interface BackendBlock {
  type: string;
  attributes: Attributes;
}

type Body = Record<string, unknown>;

const PARSER = '@cdktn/hcl2json';

/** The parser, loaded on first use (it reads and starts a 2 MB WebAssembly module: no cost for other commands). */
async function parsed(file: string, text: string): Promise<Body> {
  // named by a variable: the package's declarations pull in the DOM library, which the package build must not see
  const { parse } = (await import(PARSER)) as { parse: (file: string, text: string) => Promise<unknown> };
  try {
    return (await parse(file, text)) as Body;
  } catch (err) {
    // "parse config: [main.tf:3,5-12: Summary; Detail.]" → "line 3, column 5: Summary; Detail."
    const words = (err as Error).message
      .replace(/^parse config: \[/, '')
      .replace(/\]$/, '')
      .replace(/^[^\n]*?:(\d+),(\d+)-[\d,]+: /, 'line $1, column $2: ');
    throw new Error(`not HCL Terraform reads (${words})`);
  }
}

const isBody = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A body's own attributes: strings, numbers and booleans (nested blocks, lists and maps are not backend settings). */
function scalars(body: Body): Attributes {
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(body))
    if (['string', 'number', 'boolean'].includes(typeof value)) attributes[key] = String(value);
  return attributes;
}

/** Every `terraform { backend "TYPE" { … } }` block of a .tf file's text. */
export async function backendBlocks(file: string, text: string): Promise<BackendBlock[]> {
  const blocks: BackendBlock[] = [];
  const terraform = (await parsed(file, text)).terraform;
  for (const block of Array.isArray(terraform) ? terraform : []) {
    const backends = isBody(block) ? block.backend : undefined;
    for (const [type, bodies] of Object.entries(isBody(backends) ? backends : {}))
      for (const body of Array.isArray(bodies) ? bodies : [])
        if (isBody(body)) blocks.push({ type, attributes: scalars(body) });
  }
  return blocks;
}

/** The settings of a `-backend-config` file (`bucket = "x"` lines, as HCL). */
export async function backendConfig(file: string, text: string): Promise<Attributes> {
  return scalars(await parsed(file, text));
}
