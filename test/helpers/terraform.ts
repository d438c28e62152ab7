// Terraform as a user runs it, in a working directory, without prompts, telemetry or a CLI configuration file.
import { spawn } from 'node:child_process';

/** Runs `terraform …` in `dir`; resolves with its exit code and its stdout and stderr together. */
export function runTerraform(dir: string, ...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('terraform', [...args, '-no-color'], {
      cwd: dir,
      env: { ...process.env, TF_IN_AUTOMATION: '1', TF_CLI_CONFIG_FILE: '/dev/null', CHECKPOINT_DISABLE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}
