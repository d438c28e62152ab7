// The demo's sign-in accounts (LOCKBOARD_DEMO only), one per way of using the console, and what each may do without
// an access file: an operator, a releaser and a viewer of every lock, and a team's operator scoped to that team's
// locks (the demo's CI source). The login page and the demo's banner name each one from this list. With
// LOCKBOARD_ACCESS_FILE, the accounts get exactly what the file grants them (deploy/access.example.yaml).
import type { Grant } from './grants';
import type { Role } from './roles';

interface DemoAccount {
  email: string;
  password: string;
  role: Role;
  /** The lock address globs the role covers. */
  locks: string[];
  /** What the account is for, in a few words. */
  about: string;
}

/** The CI team's locks in the demo (its `gs://lockboard-demo/ci/` source). */
const DEMO_TEAM_LOCKS = ['gs://lockboard-demo/ci/*'];

export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    email: 'operator@demo.lockboard',
    password: 'operator',
    role: 'operator',
    locks: ['*'],
    about: 'can force-release any lock',
  },
  {
    email: 'releaser@demo.lockboard',
    password: 'releaser',
    role: 'releaser',
    locks: ['*'],
    about: 'releases only expired locks or those whose holder is gone',
  },
  { email: 'viewer@demo.lockboard', password: 'viewer', role: 'viewer', locks: ['*'], about: 'read only' },
  {
    email: 'ci-team@demo.lockboard',
    password: 'ci-team',
    role: 'operator',
    locks: DEMO_TEAM_LOCKS,
    about: `the CI team, over ${DEMO_TEAM_LOCKS.join(', ')} only`,
  },
];

export const DEMO_GRANTS: Grant[] = DEMO_ACCOUNTS.map(({ email, role, locks }) => ({ who: [email], role, locks }));
