// Pulumi DIY backend (pulumi/pulumi pkg/backend/diy/lock.go): `.pulumi/locks/<stack path>/<uuid>.json`, body
// {pid, username, hostname, timestamp}. No TTL; two lock files for one stack mean contention.
import { details, jsonBody, stringField, type LockFormatModule, detailOf } from './types';

const LOCK_PATH = /(?:^|\/)\.pulumi\/locks\/(.+)\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/i;

export const pulumi: LockFormatModule = {
  id: 'pulumi',
  label: 'Pulumi stack lock',
  needsBody: (view) => LOCK_PATH.test(view.name),
  read(view) {
    const match = LOCK_PATH.exec(view.name);
    if (!match) return null;
    const body = jsonBody(view);
    const dropped: string[] = [];
    const user = stringField(body, 'username', dropped);
    const host = stringField(body, 'hostname', dropped);
    return {
      identity: user && host ? `${user}@${host}` : (user ?? host),
      details: details([
        ['Stack', match[1]],
        ['User', user],
        ['Host', host],
        ['PID', stringField(body, 'pid', dropped)],
        ['Timestamp', stringField(body, 'timestamp', dropped)],
      ]),
      dropped,
    };
  },
  noHeartbeat: (r) =>
    `Pulumi writes no heartbeat: only ${r.identity ?? 'an unnamed user'} and pid ${detailOf(r, 'PID') ?? '?'} are known; whether that pid still runs an update on that host would settle it`,
  release: 'delete',
  releaseNote:
    'Deletes this lock file, like `pulumi cancel` would. If the update that holds it is still running, ' +
    'another update can then change the same stack.',
};
