// What the demo prints once everything is up: the console, its accounts, and a CLI line for every source it started.
import type { Emulator } from '../emulator';
import { DEMO_ACCOUNTS } from '../server/auth/demo-accounts';
import type { ConsoleProcess } from './console';
import { PLATFORM_BUCKET } from './platform';
import { S3_BUCKET } from './s3';
import type { DemoServers } from './servers';

const INDENT = '             ';

/** Every demo account once, with its password and what it is for (a releaser included, to try that role). */
export function accountLines(): string[] {
  const width = Math.max(...DEMO_ACCOUNTS.map((a) => `${a.email} / ${a.password}`.length));
  return DEMO_ACCOUNTS.map((a) => `${`${a.email} / ${a.password}`.padEnd(width)}   (${a.role}: ${a.about})`);
}

/** How to see a webhook fire in the demo: a receiver on this machine, the file naming it, the operator's page. */
function webhookLines(consoleUrl: string): string[] {
  return [
    `echo 'webhooks: [{ name: local, url: "http://127.0.0.1:9999/" }]' > /tmp/hooks.yaml`,
    `LOCKBOARD_WEBHOOKS_FILE=/tmp/hooks.yaml npm run demo   (a receiver on 9999 printing each POST:`,
    `node -e "require('http').createServer((q, r) => q.on('data', (d) => console.log(String(d))).on('end', () => r.end())).listen(9999)")`,
    `then force-release a lock as the operator, or press "Send test" on ${consoleUrl}/webhooks`,
  ];
}

/** One CLI line per server that started (a server that is off has none). */
function serverLines({ redis, postgres, mysql, dynamo, files, kube, zk, etcd, azure }: DemoServers): string[] {
  return [
    redis && `npx lockboard ls ${redis.url}   (Redis locks of every common library)`,
    postgres && `npx lockboard ls ${postgres.url}   (advisory locks, lock tables)`,
    mysql && `npx lockboard ls ${mysql.url}   (Flyway's named lock and its waiter, Liquibase, ShedLock, Laravel)`,
    dynamo &&
      `AWS_ENDPOINT_URL_DYNAMODB=${dynamo.endpoint} npx lockboard ls dynamodb://tf-locks   (Terraform, lock clients)`,
    files && `npx lockboard ls '${files.url}'   (lock files: a live holder, a crash, a stale git lock)`,
    kube &&
      `KUBECONFIG=${kube.env.KUBECONFIG} npx lockboard ls kubernetes://   (client-go leader elections, Terraform)`,
    zk && `npx lockboard ls ${zk.url}   (Curator and kazoo: holders and waiters in queue order)`,
    etcd && `npx lockboard status ${etcd.url} jobs/db-migrate   (a wedged etcdctl lock and its waiters)`,
    azure &&
      `AZURE_STORAGE_CONNECTION_STRING='${azure.env.AZURE_STORAGE_CONNECTION_STRING}' npx lockboard ls ${azure.sources[0]}   (Terraform azurerm leases)`,
  ].filter((line): line is string => Boolean(line));
}

export function banner(o: {
  console_: ConsoleProcess;
  consoleLog: string;
  emulator: Emulator;
  servers: DemoServers;
  dataDir: string;
  bucket: string;
  auditKey: string;
}): string {
  const { console_, emulator, bucket } = o;
  const s3Url = emulator.s3!.url;
  const cli = [
    `LOCKBOARD_BUCKET=${bucket} LOCKBOARD_GCS_ENDPOINT=${emulator.url} npx lockboard ls`,
    `LOCKBOARD_GCS_ENDPOINT=${emulator.url} npx lockboard ls gs://${PLATFORM_BUCKET}/   (Terraform, Vault, ...)`,
    `AWS_ENDPOINT_URL_S3=${s3Url} npx lockboard ls s3://${S3_BUCKET}/   (Terraform S3 lockfiles, S3 locks)`,
    ...serverLines(o.servers),
  ];
  return `
Lockboard demo is running.
  Console:   ${console_.url}
  Accounts:  ${accountLines().join(`\n${INDENT}`)}
             (LOCKBOARD_ACCESS_FILE=deploy/access.example.yaml: the accounts get what that file grants)
  Webhooks:  ${webhookLines(console_.url).join(`\n${INDENT}`)}
  Audit key: LOCKBOARD_AUDIT_KEY=${o.auditKey}   (signs the trail; set it for the CLI too)
  Long-held: LOCKBOARD_LONG_HELD=10m   (the console marks locks held past 10 min; set it for the CLI to agree)
  Emulator:  GCS ${emulator.url}, S3 ${s3Url} (data in ${o.dataDir})
  CLI:       ${cli.join(`\n${INDENT}`)}
  Log:       ${o.consoleLog} (the console's output; its warnings and errors are also printed here)
  Metrics:   curl -H 'Authorization: Bearer demo-metrics-token-0123456789' ${console_.url}/api/metrics
Press Ctrl-C to stop.`;
}
