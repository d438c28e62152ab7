// Suites that drive real tools no npm install brings: which tool each needs, whether this machine has it, and how
// to install it. vitest.config.ts runs a suite only where its tool is found; the summary line names the rest, and
// LOCKBOARD_REQUIRE_TOOLS=gcloud,pubsub-emulator (set by .ci/run) turns a missing tool into a failure.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface ToolSuite {
  file: string;
  tool: string;
  install: string;
}

export const TOOL_SUITES: ToolSuite[] = [
  {
    file: 'test/interop/gcloud.test.ts',
    tool: 'gcloud',
    install: 'the Google Cloud CLI: add Google\'s apt repository, then "apt-get install google-cloud-cli"',
  },
  {
    file: 'test/interop/pubsub.test.ts',
    tool: 'pubsub-emulator',
    install:
      'Google\'s Pub/Sub emulator and Java: "apt-get install google-cloud-cli-pubsub-emulator default-jre-headless" (or "gcloud components install pubsub-emulator")',
  },
  {
    file: 'test/interop/live-pubsub.test.ts',
    tool: 'pubsub-emulator',
    install:
      'Google\'s Pub/Sub emulator and Java: "apt-get install google-cloud-cli-pubsub-emulator default-jre-headless" (or "gcloud components install pubsub-emulator")',
  },
  {
    file: 'test/interop/alert-rules.test.ts',
    tool: 'promtool',
    install: 'Prometheus\'s promtool: "apt-get install prometheus" (Debian\'s package carries it)',
  },
  {
    file: 'test/interop/terraform-s3.test.ts',
    tool: 'terraform',
    install: 'Terraform ≥ 1.10 on PATH (https://developer.hashicorp.com/terraform/install)',
  },
  {
    file: 'test/interop/terraform-dynamodb.test.ts',
    tool: 'terraform',
    install: 'Terraform ≥ 1.10 on PATH (https://developer.hashicorp.com/terraform/install)',
  },
  {
    file: 'test/interop/terraform-local.test.ts',
    tool: 'terraform',
    install: 'Terraform ≥ 1.10 on PATH (https://developer.hashicorp.com/terraform/install)',
  },
  {
    file: 'test/interop/terraform.test.ts',
    tool: 'terraform',
    install: 'Terraform ≥ 1.10 on PATH (https://developer.hashicorp.com/terraform/install)',
  },
];

function onPath(command: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/** The Cloud SDK root of the gcloud on PATH (the Debian package's, or a tarball install's). */
export function gcloudRoot(): string | undefined {
  const gcloud = onPath('gcloud');
  if (!gcloud) return undefined;
  const real = spawnSync('readlink', ['-f', gcloud], { encoding: 'utf8' }).stdout.trim();
  return join(real, '..', '..'); // <root>/bin/gcloud
}

export function hasTool(tool: string): boolean {
  if (tool === 'pubsub-emulator') {
    const root = gcloudRoot();
    return Boolean(root && existsSync(join(root, 'platform', 'pubsub-emulator')) && onPath('java'));
  }
  return onPath(tool) !== undefined;
}

/** Tools the environment says must be present (CI), from LOCKBOARD_REQUIRE_TOOLS. */
export function requiredTools(): string[] {
  return (process.env.LOCKBOARD_REQUIRE_TOOLS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
