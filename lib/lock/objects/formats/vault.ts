// Vault / OpenBao HA lock on GCS (hashicorp/vault physical/gcs/gcs_ha.go): metadata `lock` holds JSON
// {identity, timestamp}; the leader rewrites it every 5 s (new generation), and others treat it as stale 15 s after
// the last write (constants in Vault's code, not stored).
import { details, stringField, type LockFormatModule } from './types';

const VAULT_TTL_MS = 15_000;
const VAULT_REFRESH_MS = 5_000;

export const vault: LockFormatModule = {
  id: 'vault',
  label: 'Vault HA lock',
  read({ metadata, updatedMs }) {
    if (metadata.lock === undefined) return null;
    let lock: Record<string, unknown>;
    try {
      lock = JSON.parse(metadata.lock) as typeof lock;
    } catch {
      return null;
    }
    if (typeof lock !== 'object' || lock === null || lock.identity === undefined || lock.timestamp === undefined)
      return null;
    const dropped: string[] = [];
    const identity = stringField(lock, 'identity', dropped);
    return {
      ...(identity !== undefined ? { identity } : {}),
      details: details([
        ['Node identity', identity],
        ['Leader id', metadata.value],
        ['Written at', stringField(lock, 'timestamp', dropped)],
      ]),
      dropped,
      staleAt: updatedMs + VAULT_TTL_MS,
      refreshMs: VAULT_REFRESH_MS,
      ttlMs: VAULT_TTL_MS,
    };
  },
  release: 'delete',
  releaseNote:
    'Deletes the HA lock: if its holder is the live active node, it steps down and a standby takes over ' +
    '(a short outage of the active node). Only clear it when the active node is gone.',
};
