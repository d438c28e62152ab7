// Google's Pub/Sub emulator (gcloud beta emulators pubsub start) for tests and benchmarks: on a free port, in its
// own process group (gcloud starts java; both are stopped together), stopped by whoever started it.
import { spawn } from 'node:child_process';
import { freePort } from './browser';
import { delay } from './requests';

export interface TestPubsub {
  /** http://127.0.0.1:PORT */
  url: string;
  /** host:port, as PUBSUB_EMULATOR_HOST takes it */
  host: string;
  put(path: string, body: unknown): Promise<void>;
  /** GET /v1/<path> as JSON */
  get(path: string): Promise<Record<string, unknown>>;
  stop(): void;
}

export async function startPubsub(project: string): Promise<TestPubsub> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(
    'gcloud',
    ['beta', 'emulators', 'pubsub', 'start', `--host-port=127.0.0.1:${port}`, `--project=${project}`],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const stop = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  for (let i = 0; i < 120; i++) {
    const up = await fetch(`${url}/v1/projects/${project}/topics`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) {
      return {
        url,
        host: `127.0.0.1:${port}`,
        stop,
        async put(path, body) {
          const res = await fetch(`${url}/v1/${path}`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          if (!res.ok) throw new Error(`PUT ${path}: ${res.status} ${await res.text()}`);
        },
        async get(path) {
          const res = await fetch(`${url}/v1/${path}`);
          return (await res.json()) as Record<string, unknown>;
        },
      };
    }
    if (child.exitCode !== null) break;
    await delay(500);
  }
  stop();
  throw new Error(`The Pub/Sub emulator did not start:\n${output.slice(-2000)}`);
}
