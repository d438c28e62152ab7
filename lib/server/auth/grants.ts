// The access file (LOCKBOARD_ACCESS_FILE, JSON or YAML): grants of a role over lock address globs to e-mails,
// "@domain"s and SSO groups, and API tokens by their sha256. Parsed with line numbers: every problem names the file,
// the line and the fix.
import { LineCounter, parseDocument, isNode } from 'yaml';
import { z } from 'zod';
import { STORES } from '@/lib/lock/stores';
import { ROLES, type Role } from './roles';

export interface Grant {
  who: string[];
  role: Role;
  locks: string[];
}

interface TokenGrant {
  name: string;
  sha256: string;
  role: Role;
  locks: string[];
  /** When the token stops working (ISO 8601), if ever. */
  expires?: string;
}

export interface Grants {
  grants: Grant[];
  tokens: TokenGrant[];
}

export class AccessFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccessFileError';
  }
}

const schemes = () => STORES.flatMap((s) => s.schemes);

/** Why a glob can match no address (and how to write it), or null for a glob that can. */
function globProblem(glob: string): string | null {
  if (glob === '') return 'an empty glob matches no lock: write "*" or an address such as gs://bucket/prefix/*';
  if (glob.startsWith('*')) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(glob)?.[1];
  if (!scheme || !schemes().includes(scheme.toLowerCase()))
    return `"${glob}" matches no lock address: start it with "*" or with a source's scheme (${schemes()
      .map((s) => `${s}://`)
      .join(', ')})`;
  const rest = glob.slice(scheme.length + 3);
  if (/^[^/*]*@/.test(rest)) return `"${glob}": addresses never carry credentials; remove "user:password@"`;
  if (rest.includes('?')) return `"${glob}": addresses never carry a query; remove "?…" (match names with "*")`;
  return null;
}

const glob = z.string().superRefine((g, ctx) => {
  const problem = globProblem(g);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const role = z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` });
const subject = z
  .string()
  .trim()
  .regex(/^(group:.+|@[^@\s]+\.[^@\s]+|[^@\s]+@[^@\s]+)$/, {
    error: 'must be an e-mail address, "@domain" or "group:NAME"',
  });
const locks = z.array(glob).min(1, 'list at least one glob ("*" for every lock)');
const grantSchema = z.strictObject({
  who: z.union([subject, z.array(subject).min(1, 'name at least one subject')]).transform((w) => [w].flat()),
  role,
  locks,
});
const tokenSchema = z.strictObject({
  name: z.string().trim().min(1, 'name the token (shown as the actor in the audit trail)').max(100),
  sha256: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[0-9a-f]{64}$/, { error: 'must be the token\'s sha256 in hex (printf %s "$TOKEN" | sha256sum)' }),
  role,
  locks,
  expires: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time such as 2027-01-31T00:00:00Z' }).optional(),
});
const accessFileSchema = z.strictObject({
  grants: z.array(grantSchema).default([]),
  tokens: z.array(tokenSchema).default([]),
});

/** The grants of an access file's text; throws AccessFileError naming `file`, the line and the fix. */
export function parseGrants(text: string, file: string): Grants {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number | undefined) => (offset === undefined ? 1 : lines.linePos(offset).line);
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    throw new AccessFileError(`${file}:${at(e.pos[0])}: not valid YAML or JSON (${e.message.split('\n')[0]}).`);
  }
  const parsed = accessFileSchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    let node = doc.getIn(path, true);
    for (let n = path.length; !isNode(node) && n > 0; n--) node = doc.getIn(path.slice(0, n - 1), true);
    const where = path.join('.') || 'the file';
    throw new AccessFileError(
      `${file}:${at(isNode(node) ? node.range?.[0] : undefined)}: ${where} ${issue.message}. Fix the file; see deploy/access.example.yaml.`,
    );
  }
  const tokens = parsed.data.tokens;
  const dup = tokens.find((t, i) => tokens.findIndex((u) => u.name === t.name) !== i);
  if (dup) throw new AccessFileError(`${file}: token "${dup.name}" is listed twice; give each token its own name.`);
  return parsed.data;
}

/** The grants of LOCKBOARD_OPERATORS / LOCKBOARD_VIEWERS: a grant over every lock for each list. */
export function listGrants(operators: string[], viewers: string[]): Grant[] {
  return [
    ...(operators.length ? [{ who: operators, role: 'operator' as const, locks: ['*'] }] : []),
    ...(viewers.length ? [{ who: viewers, role: 'viewer' as const, locks: ['*'] }] : []),
  ];
}
