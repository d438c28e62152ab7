// The demo as `npm run demo` runs it (lib/demo/index.ts), on the console build as it stands: the scale-demo bench
// measures that build, where the demo would first rebuild a tree other work is changing. Every part starts and stops
// as the demo's own: the emulator, the holders, every server, the console; SIGTERM stops them all.
import { quietSdkNotices } from '@/lib/cli/sdk-notices';
import { SERVER } from '@/lib/demo/console';
import { parseOptions } from '@/lib/demo/options';
import { Shutdown, stopRequested } from '@/lib/demo/shutdown';
import { existsSync } from 'node:fs';

const life = new Shutdown();
const signalled = stopRequested();
let running = false; // until the banner a signal stops at once, as the demo does
void signalled.then(() => running || life.stop(130));
const o = parseOptions(process.argv.slice(2));
if (typeof o === 'number') process.exit(o);
if (!existsSync(SERVER)) {
  console.error(`scale-demo: no console build at ${SERVER}: run npm run build first`);
  process.exit(1);
}
quietSdkNotices();
process.on('uncaughtException', (err) => life.crashed(err));
process.on('unhandledRejection', (err) => life.crashed(err));
const { startDemo } = await import('@/lib/demo/start');
const console_ = await startDemo(o, life);
if (typeof console_ === 'number') process.exit(console_);
running = true;
await Promise.race([signalled, new Promise((r) => console_.child.once('exit', r))]);
await life.stop(0);
