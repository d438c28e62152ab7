import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Acquires `name` in a separate process and kills it with SIGKILL: a real crashed holder. Resolves with its generation. */
export async function crashedHolder(endpoint: string, bucket: string, name: string, ttlMs: number): Promise<string> {
  const script = fileURLToPath(new URL('../../lib/demo/crash-holder.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, endpoint, bucket, name, String(ttlMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const generation = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /acquired (\d+)/.exec(d.toString());
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`crash holder exited early (${code})`)));
  });
  // Give its background audit write (the `acquired` event) time to land, as a real holder would have.
  await new Promise((r) => setTimeout(r, 500));
  child.kill('SIGKILL');
  return generation;
}
