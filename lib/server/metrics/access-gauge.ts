// lockboard_access_file_degraded: 1 while the access file is deleted or cannot be used (its grace, then failed
// closed), 0 while it is in force; the state says which. Set at each scrape of a scraper over every lock.
import 'server-only';
import { Gauge } from 'prom-client';
import { processWide } from '../process/process-wide';
import { accessFileState } from '../auth/access-file';
import { metrics } from './metrics';

const STATES = ['ok', 'deleted', 'grace', 'closed'] as const;

const gauge = processWide(
  'accessGauge',
  () =>
    new Gauge({
      name: 'lockboard_access_file_degraded',
      help: 'Whether the access file is deleted (grants withdrawn) or unusable (last good grants within LOCKBOARD_ACCESS_GRACE: grace; then withdrawn: closed), by state.',
      labelNames: ['state'] as const,
      registers: [metrics.registry],
    }),
);

export function setAccessGauge(): void {
  const now = accessFileState().state;
  for (const state of STATES) gauge.set({ state }, state === now && state !== 'ok' ? 1 : 0);
}
