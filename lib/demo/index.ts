// npm run demo: the embedded emulator (persisted, write-rate limit on), simulated holders, and the console. `main` is
// its steps in order: the options, the ports, the console's build, the emulator, the holders, the servers, the
// console, the banner, then a signal (or a crash) and the whole stop.
import { quietSdkNotices } from '../cli/sdk-notices';
import { buildWithProgress, needsBuild, type ConsoleProcess } from './console';
import { parseOptions, type DemoOptions } from './options';
import { takenPort } from './ports';
import { Shutdown, stopRequested } from './shutdown';

/** True when every port is free; otherwise says which one is taken and the flag that moves it. */
async function portsFree({ ports }: DemoOptions): Promise<boolean> {
  const taken = await takenPort(ports);
  if (taken) console.error(`demo: ${taken}`);
  return !taken;
}

/** Resolves when the demo should stop: a signal, or the console exiting by itself. */
function stopWanted(signalled: Promise<void>, console_: ConsoleProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => console_.child.once('exit', () => resolve()));
  return Promise.race([signalled, exited]);
}

const life = new Shutdown();

async function main(): Promise<number> {
  const signalled = stopRequested();
  const o = parseOptions(process.argv.slice(2));
  if (typeof o === 'number') return o;
  quietSdkNotices(); // the AWS SDK's Node-version notice: the demo's own clients and the console it starts
  if (!(await portsFree(o))) return 1;
  process.on('uncaughtException', (err) => life.crashed(err));
  process.on('unhandledRejection', (err) => life.crashed(err));
  let running = false; // until the banner, a signal stops at once; afterwards main's own wait sees it
  void signalled.then(() => running || life.stop(130));
  if (needsBuild()) await buildWithProgress();
  const { startDemo } = await import('./start');
  const console_ = await startDemo(o, life);
  if (typeof console_ === 'number') return console_;
  running = true;
  await stopWanted(signalled, console_);
  console.log('\nStopping: releasing demo locks, stopping the console and the emulator...');
  return life.stop(0);
}

process.exitCode = await main().catch((err: unknown) => {
  life.crashed(err); // a step of the start-up failed: the whole stop of what had started
  return 1;
});
