// Terraform and OpenTofu GCS backend (hashicorp/terraform internal/backend/remote-state/gcs/client.go): a
// `<state>.tflock` object created with DoesNotExist, body {ID, Operation, Info, Who, Version, Created, Path}. No TTL.
// `terraform force-unlock` takes the object's generation as the lock ID.
import { details, jsonBody, stringField, type LockFormatModule } from './types';

export const terraform: LockFormatModule = {
  id: 'terraform',
  label: 'Terraform state lock',
  needsBody: (view) => view.name.endsWith('.tflock'),
  read(view) {
    if (!view.name.endsWith('.tflock')) return null;
    const body = jsonBody(view);
    const dropped: string[] = [];
    const field = (key: string) => stringField(body, key, dropped);
    const who = field('Who');
    // Go writes nanoseconds (2026-11-27T13:23:29.581666687Z): Date.parse takes milliseconds
    const createdText = field('Created');
    const created = Date.parse((createdText ?? '').replace(/(\.\d{3})\d+/, '$1'));
    return {
      identity: who,
      ...(Number.isFinite(created) ? { acquiredMs: created } : {}),
      details: details([
        ['Who', who],
        ['Operation', field('Operation')],
        ['Path', field('Path')],
        ['Created', createdText],
        ['Version', field('Version')],
        ['Info', field('Info')],
        ['Terraform lock info ID', field('ID')],
      ]),
      dropped,
    };
  },
  // short: 100 locks of a window each carry it (Operation and Created are among the lock's details)
  noHeartbeat: (r) =>
    `Terraform writes no heartbeat: only Who (${r.identity ?? 'not recorded'}) is known; whether its run still goes on would settle it`,
  release: 'delete',
  releaseNote:
    'Deletes the .tflock object, like `terraform force-unlock <lock ID>` (the lock ID is the generation). ' +
    'If the run that holds it is still applying, two applies can then write the state at once.',
};
