// The built CLI (dist/cli.cjs, the bundle bin/run.js loads) run in the test's own process:
// the same oclif, commands and code, parsed and run from argv as `node bin/run.js` would,
// with what a child would have of its own given to it for the run and taken back after:
// - its environment (process.env is replaced, then restored) and working directory;
// - its stdout and stderr, collected from the streams' writes; neither is a terminal;
// - its exit code (process.exitCode, then restored), or oclif's exit as a child's would be.
// A run costs milliseconds where a child costs a quarter of a second of node's and the
// bundle's start-up on an idle machine, several times that on a busy one; hundreds of the
// suite's runs are one-shot commands that read, print and end.
//
// What only a process of its own has stays with child processes (nri-cli.ts startCli and
// runCliChild): signals, a terminal, stdin, a reader that goes away, the start-up and the
// end of the process, FORCE_COLOR (chalk reads it once, when the bundle loads).
//
// One run at a time: a run asked for while another is under way (tests of a file run
// concurrently) waits for it, as the streams and the environment are the process's. Two
// commands that must run at the same time, such as a long-running one and its client,
// need a child for at least one of them.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { assertFreshBuild } from './built.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  /** The whole environment of the run (cliEnv() makes one). */
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

interface Bundle {
  run(argv: string[], root: string): Promise<unknown>;
}

let bundle: Bundle | undefined;
/** The run under way, or the last one: the next one starts when it has ended. */
let queue: Promise<unknown> = Promise.resolve();

/** `nrictl ...args` in this process, to its end. */
export function runInProcess(args: string[], opts: InProcessOptions): Promise<InProcessResult> {
  if (opts.env.FORCE_COLOR !== undefined) {
    return Promise.reject(new Error('FORCE_COLOR is read when the bundle loads: run nrictl as a child process'));
  }
  const run = queue.then(() => runNow(args, opts));
  queue = run.catch(() => undefined);
  return run;
}

async function runNow(args: string[], opts: InProcessOptions): Promise<InProcessResult> {
  const out: string[] = [];
  const err: string[] = [];
  const restore = [
    swapEnvironment(opts.env),
    swapDirectory(opts.cwd),
    captureWrites(process.stdout, out),
    captureWrites(process.stderr, err),
    captureConsole(out, err),
  ];
  const exitCodeBefore = process.exitCode;
  process.exitCode = undefined;
  let code: number;
  try {
    const cli = await loadBundle();
    // What loading printed is not this run's.
    out.length = 0;
    err.length = 0;
    const listenersBefore = processListeners();
    await cli.run(args, REPO);
    code = Number(process.exitCode ?? 0);
    // A command leaves nothing of its run on the process (src/cli/base-command.ts).
    const left = listenersLeft(listenersBefore, processListeners());
    if (left.length > 0) throw new Error(`nrictl ${args.join(' ')} left listeners on the process: ${left.join(', ')}`);
  } catch (e) {
    // What oclif's own handler would have made of it in a child: an exit (a hook's
    // this.exit, oclif's parse of the command line), else a crash of the command line.
    const exit = (e as { oclif?: { exit?: number } }).oclif?.exit;
    if (exit === undefined) throw e;
    code = exit;
  } finally {
    process.exitCode = exitCodeBefore;
    for (const undo of restore.reverse()) undo();
  }
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/**
 * Loaded with the first run's environment and streams, and primed with a run of `version`:
 * what oclif adds to the process once, when its first command loads (a listener for EPIPE
 * on stdout), is then not taken for something a run left behind.
 */
async function loadBundle(): Promise<Bundle> {
  if (bundle) return bundle;
  // As bin/run.js loads it: compiled code, with the code cache the build wrote.
  const global = globalThis as { oclif?: Record<string, unknown> };
  global.oclif = { ...global.oclif, enableAutoTranspile: false };
  assertFreshBuild();
  const require = createRequire(import.meta.url);
  const { requireWithCodeCache } = require(path.join(REPO, 'dist', 'code-cache.cjs')) as {
    requireWithCodeCache: (file: string, opts: { cacheFile: string }) => { exports: Bundle };
  };
  const loaded = requireWithCodeCache(path.join(REPO, 'dist', 'cli.cjs'), {
    cacheFile: path.join(REPO, 'dist', 'cli.code-cache'),
  }).exports;
  await loaded.run(['version'], REPO);
  return (bundle = loaded);
}

function swapEnvironment(env: NodeJS.ProcessEnv): () => void {
  const before = { ...process.env };
  const replace = (next: NodeJS.ProcessEnv): void => {
    for (const key of Object.keys(process.env)) if (!(key in next) || next[key] === undefined) delete process.env[key];
    for (const [key, value] of Object.entries(next)) if (value !== undefined) process.env[key] = value;
  };
  replace(env);
  return () => replace(before);
}

function swapDirectory(cwd: string | undefined): () => void {
  if (cwd === undefined) return () => {};
  const before = process.cwd();
  process.chdir(cwd);
  return () => process.chdir(before);
}

/** The stream's writes go to `into`; a write's callback is called as a pipe's would be, later. */
function captureWrites(stream: NodeJS.WriteStream, into: string[]): () => void {
  const write = Object.getOwnPropertyDescriptor(stream, 'write');
  const isTTY = Object.getOwnPropertyDescriptor(stream, 'isTTY');
  const captured = (chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean => {
    const done = typeof encoding === 'function' ? encoding : callback;
    into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    if (typeof done === 'function') process.nextTick(() => (done as () => void)());
    return true;
  };
  Object.defineProperty(stream, 'write', { value: captured, configurable: true, writable: true });
  Object.defineProperty(stream, 'isTTY', { value: false, configurable: true, writable: true });
  return () => {
    for (const [name, before] of [
      ['write', write],
      ['isTTY', isTTY],
    ] as const) {
      if (before) Object.defineProperty(stream, name, before);
      else Reflect.deleteProperty(stream, name);
    }
  };
}

/** What the command line prints through console (oclif's --version does): as the streams would have it. */
function captureConsole(out: string[], err: string[]): () => void {
  const methods = { log: out, info: out, debug: out, error: err, warn: err } as const;
  const before = new Map<string, PropertyDescriptor | undefined>();
  for (const [name, into] of Object.entries(methods)) {
    before.set(name, Object.getOwnPropertyDescriptor(console, name));
    Object.defineProperty(console, name, {
      value: (...data: unknown[]) => void into.push(`${format(...data)}\n`),
      configurable: true,
      writable: true,
    });
  }
  return () => {
    for (const [name, descriptor] of before) {
      if (descriptor) Object.defineProperty(console, name, descriptor);
      else Reflect.deleteProperty(console, name);
    }
  };
}

// Not 'exit': a simulator that a test beside the run starts in this process listens for it.
const WATCHED = {
  process: ['SIGINT', 'SIGTERM', 'SIGHUP'],
  stdout: ['error', 'close', 'drain', 'finish'],
  stderr: ['error', 'close', 'drain', 'finish'],
} as const;

/** How many listeners the process and its standard streams have, per event a command might listen to. */
function processListeners(): Map<string, number> {
  const emitters = { process, stdout: process.stdout, stderr: process.stderr };
  const counts = new Map<string, number>();
  for (const [name, events] of Object.entries(WATCHED)) {
    for (const event of events)
      counts.set(`${name} '${event}'`, emitters[name as keyof typeof emitters].listenerCount(event));
  }
  return counts;
}

function listenersLeft(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...after].flatMap(([what, n]) =>
    n > (before.get(what) ?? 0) ? [`${n - before.get(what)!} on ${what}`] : [],
  );
}
