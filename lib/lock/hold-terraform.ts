// A hold as Terraform's LockInfo (hashicorp/terraform internal/states/statemgr/locker.go: ID, Operation, Info, Who,
// Version, Created, Path), the body every Terraform backend keeps: a blocked `terraform plan` prints each field under
// "Lock Info:". Who names the operator and the hold's end, Info carries the reason. Terraform never ends it by itself.
import { randomUUID } from 'node:crypto';
import type { HoldFormat, HoldPlan } from './hold-types';
import { holdOwner } from './hold-marker';

const DAY = 86_400_000;

/** Terraform's own `.tflock`: the lock of the state file beside it. */
export const TERRAFORM_HOLD: HoldFormat = {
  id: 'terraform',
  label: 'Terraform LockInfo',
  maxMs: 30 * DAY,
  maxWords: 'Terraform never ends its lock by itself, so Lockboard keeps such a hold to 30 days',
  endsItself: false,
  fits: (name) => name.endsWith('.tflock'),
};

/** The LockInfo JSON of a hold; `path` is the state's path as the backend names it. */
export function terraformLockInfo(plan: HoldPlan, path: string): string {
  return JSON.stringify({
    ID: randomUUID(),
    Operation: 'lockboard hold',
    Info: plan.reason,
    Who: holdOwner(plan.operator, plan.untilMs),
    Version: 'lockboard',
    Created: new Date(plan.sinceMs).toISOString(),
    Path: path,
  });
}
