// The demo's sign-in accounts (LOCKBOARD_DEMO only) and what they may do without an access file: an operator and a
// viewer of every lock, and a team's operator scoped to that team's locks (the demo's CI source). With
// LOCKBOARD_ACCESS_FILE, the accounts get exactly what the file grants them (deploy/access.example.yaml).
import type { Grant } from './grants';

export const DEMO_ACCOUNTS = [
  { email: 'operator@demo.lockboard', password: 'operator', role: 'operator' as const },
  { email: 'viewer@demo.lockboard', password: 'viewer', role: 'viewer' as const },
  { email: 'ci-team@demo.lockboard', password: 'ci-team', role: 'operator' as const },
];

/** The CI team's locks in the demo (its `gs://lockboard-demo/ci/` source). */
export const DEMO_TEAM_LOCKS = ['gs://lockboard-demo/ci/*'];

export const DEMO_GRANTS: Grant[] = [
  { who: ['operator@demo.lockboard'], role: 'operator', locks: ['*'] },
  { who: ['viewer@demo.lockboard'], role: 'viewer', locks: ['*'] },
  { who: ['ci-team@demo.lockboard'], role: 'operator', locks: DEMO_TEAM_LOCKS },
];
