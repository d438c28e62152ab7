// Real ZooKeeper recipe writers, driven from Node: kazoo (Debian's /usr/bin/python3 with python3-kazoo) and Curator
// (Debian's jars, a single-file Java source). One process each; every contender has its own session in it.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { signalGroup, spawnGroup } from './children';

const HERE = join(import.meta.dirname, 'zk-writers');
export const KAZOO_PYTHON = '/usr/bin/python3';
const CURATOR_JARS = ['curator-recipes', 'curator-framework', 'curator-client', 'zookeeper', 'zookeeper-jute', 'guava'];
const LOG_JARS = ['slf4j-api', 'slf4j-nop'];

export interface RecipeDriver {
  /**
   * Starts contender `id` (identifier `ident`) on `recipe` at `path` (`arg`: a semaphore's max, a lease's seconds);
   * resolves once its node exists, with whether it holds at once.
   */
  start(id: string, recipe: string, path: string, ident: string, arg?: string): Promise<boolean>;
  held(id: string): Promise<boolean>;
  /** The recipe's own release (unlock, close the latch, return the lease). */
  release(id: string): Promise<void>;
  /** Ends the contender's session. */
  close(id: string): Promise<void>;
  stop(): Promise<void>;
  /** The driver's process (every contender's client runs in it): a test freezes or kills it to stop its sessions. */
  pid: number | undefined;
}

export function kazooMissing(): string | null {
  return spawnSync(KAZOO_PYTHON, ['-c', 'import kazoo']).status === 0
    ? null
    : 'kazoo is not installed for Debian’s python (apt-get install -y python3-kazoo)';
}

export function curatorClasspath(dir = '/usr/share/java'): string | null {
  const jars = [...CURATOR_JARS, ...LOG_JARS].map((j) => join(dir, `${j}.jar`));
  return jars.every((j) => existsSync(j)) ? jars.join(':') : null;
}

function drive(child: ChildProcess, what: string): RecipeDriver {
  const waiting = new Map<string, { resolve: (v: string) => void; reject: (e: Error) => void }>();
  let n = 0;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const [tag, status, ...rest] = line.split(' ');
    const w = waiting.get(tag!);
    if (!w) return;
    waiting.delete(tag!);
    if (status === 'ok') w.resolve(rest.join(' '));
    else w.reject(new Error(`${what}: ${rest.join(' ')}`));
  });
  child.once('exit', (code) => {
    for (const w of waiting.values()) w.reject(new Error(`${what} exited (${code})`));
    waiting.clear();
  });
  // each request carries the contender id; the reply tag is the id plus a counter, so replies never cross
  const send = (id: string, ...words: string[]) =>
    new Promise<string>((resolve, reject) => {
      const tag = `${id}#${n++}`;
      waiting.set(tag, { resolve, reject });
      child.stdin!.write(`${[tag, ...words].join(' ')}\n`);
    });
  return {
    pid: child.pid,
    async start(id, recipe, path, ident, arg) {
      return /^true$/i.test(await send(id, recipe, path, ident, ...(arg ? [arg] : [])));
    },
    async held(id) {
      return /^true$/i.test(await send(id, 'held'));
    },
    async release(id) {
      await send(id, 'release');
    },
    async close(id) {
      await send(id, 'close');
    },
    async stop() {
      child.stdin!.end();
      await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 3_000))]);
      if (child.exitCode === null) signalGroup(child, 'SIGKILL');
    },
  };
}

export function startKazoo(hosts: string): RecipeDriver {
  const child = spawnGroup(KAZOO_PYTHON, [join(HERE, 'kazoo_driver.py'), hosts], { stdio: ['pipe', 'pipe', 'ignore'] });
  return drive(child, 'kazoo');
}

/** CuratorDriver compiled once per machine and source version (javac: ~4 s), into a directory under the OS tmpdir. */
function compiledCurator(classpath: string): string {
  const source = join(HERE, 'CuratorDriver.java');
  const hash = createHash('sha256').update(readFileSync(source)).update(classpath).digest('hex').slice(0, 12);
  const dir = join(tmpdir(), `lockboard-curator-${hash}`);
  if (existsSync(join(dir, 'CuratorDriver.class'))) return dir;
  const build = `${dir}.${process.pid}`;
  const r = spawnSync('javac', ['-nowarn', '-cp', classpath, '-d', build, source], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`javac CuratorDriver.java failed (a JDK is needed): ${r.stderr || r.error}`);
  renameSync(build, dir);
  return dir;
}

export function startCurator(hosts: string, classpath: string): RecipeDriver {
  const dir = compiledCurator(classpath);
  const child = spawnGroup(
    'java',
    ['-Xmx128m', '-XX:TieredStopAtLevel=1', '-cp', `${dir}:${classpath}`, 'CuratorDriver', hosts],
    {
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
  return drive(child, 'Curator');
}
