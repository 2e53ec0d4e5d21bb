// Shared by the tests of the built commands: a simulated runtime in this process on a
// real unix socket that records its events, and the built CLI (`node bin/run.js` over
// the repository's dist/, built by `npm test`) as a child process, plain or on a
// pseudo-terminal.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Runtime, type RuntimeOptions } from '../../src/runtime/sim/runtime.js';
import { loadScenario } from '../../src/runtime/sim/scenario.js';
import { SimState } from '../../src/runtime/sim/state.js';
import type { SimEvent } from '../../src/runtime/events.js';
import type { nri } from '../../src/api/index.js';
import { reachableTempDir } from '../support/reachable.js';
import { runInProcess } from '../support/cli-in-process.js';

export const BIN = path.resolve('bin/run.js');

/** The built CLI must be at least as new as the commands' sources, or the test would run old code. */
export function assertBuilt(...commands: string[]): void {
  const built = path.resolve('dist/cli.cjs');
  for (const c of commands) {
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(path.resolve(`commands/${c}.ts`)).mtimeMs) {
      throw new Error(`dist/cli.cjs is missing or older than commands/${c}.ts: run npm run build (npm test does)`);
    }
  }
}

export function tempDir(prefix = 'nrc-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface SimHandle {
  runtime: Runtime;
  socketPath: string;
  events: SimEvent[];
  of<T extends SimEvent['type']>(type: T): Array<Extract<SimEvent, { type: T }>>;
  /** A deep copy of the container as the runtime holds it now. */
  container(id: string): nri.IContainer;
  /** Deep copy of every pod and container: compare before/after. */
  snapshot(): { pods: nri.IPodSandbox[]; containers: nri.IContainer[] };
  /** Resolves when a plugin of this full name ("99-nrictl-logs") is synchronized and in the invocation list. */
  synchronized(plugin: string): Promise<void>;
  stop(): Promise<void>;
}

/** `where.reachable`: the socket's directory is in a place other users can reach (test/support/reachable.ts). */
export async function startRuntime(
  state: { pods?: nri.IPodSandbox[]; containers?: nri.IContainer[] } = {},
  opts: RuntimeOptions = {},
  where: { reachable?: boolean } = {},
): Promise<SimHandle> {
  const t = where.reachable ? reachableTempDir('nrs-') : tempDir('nrs-');
  const runtime = new Runtime(new SimState(state), { socketPath: path.join(t.dir, 'nri.sock'), ...opts });
  const events: SimEvent[] = [];
  runtime.on('event', (e: SimEvent) => events.push(e));
  let socketPath: string | undefined;
  try {
    ({ socketPath } = await runtime.start());
  } catch (err) {
    t.cleanup();
    throw err;
  }
  return {
    runtime,
    socketPath: socketPath!,
    events,
    of: <T extends SimEvent['type']>(type: T) =>
      events.filter((e): e is Extract<SimEvent, { type: T }> => e.type === type),
    container: (id) => JSON.parse(JSON.stringify(runtime.state.mustContainer(id))) as nri.IContainer,
    snapshot: () => runtime.state.snapshot(),
    synchronized: (plugin) =>
      new Promise((resolve) => {
        const check = (e: SimEvent): void => {
          if (e.type === 'synchronized' && e.plugin === plugin) {
            runtime.off('event', check);
            // Joining the invocation list happens under the runtime's lock right after;
            // a lifecycle call made now queues behind it.
            resolve();
          }
        };
        if (events.some((e) => e.type === 'synchronized' && e.plugin === plugin)) resolve();
        else runtime.on('event', check);
      }),
    stop: async () => {
      await runtime.stop();
      t.cleanup();
    },
  };
}

export async function demoState(): Promise<{ pods: nri.IPodSandbox[]; containers: nri.IContainer[] }> {
  const s = await loadScenario('examples/demo.yaml');
  return { pods: s.pods, containers: s.containers };
}

/** The simulator serving examples/demo.yaml. */
export async function startDemoSim(): Promise<SimHandle> {
  return startRuntime(await demoState());
}

export interface CliRun {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Everything written so far (only when stdout is collected). */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once stderr contains the text. */
  waitForStderr(text: string | RegExp): Promise<void>;
}

// NODE_ENV=test (set by vitest) makes oclif look for TypeScript sources (and warn that it
// found none); run the build as users do.
// COLUMNS left out: output is laid out to it, and a developer's shell must not change what tests see.
// From the worker's environment as it was when the tests began: a run in process
// (runCli) has its own in process.env while it lasts, and a child started meanwhile must not inherit it.
const WORKER_ENV = { ...process.env };
export const cliEnv = (env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  ...WORKER_ENV,
  NODE_ENV: 'production',
  NO_COLOR: '1',
  COLUMNS: undefined,
  ...env,
});

/** Starts `nrictl ...args`; with collectStdout false, nobody reads its stdout until stdout() starts it. */
export function startCli(args: string[], opts: { collectStdout?: boolean; env?: NodeJS.ProcessEnv } = {}): CliRun {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: cliEnv(opts.env) });
  let out = '';
  let err = '';
  let reading = false;
  const read = (): void => {
    if (reading) return;
    reading = true;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (out += d));
  };
  if (opts.collectStdout !== false) read();
  child.stderr.setEncoding('utf8');
  const waiters: Array<() => void> = [];
  child.stderr.on('data', (d: string) => {
    err += d;
    for (const w of waiters.splice(0)) w();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    stdout: () => {
      read();
      return out;
    },
    stderr: () => err,
    exited,
    waitForStderr: (text) =>
      new Promise<void>((resolve, reject) => {
        const ok = (): boolean => (typeof text === 'string' ? err.includes(text) : text.test(err));
        const check = (): void => {
          if (ok()) resolve();
          else waiters.push(check);
        };
        void exited.then(() => {
          if (!ok()) reject(new Error(`nrictl exited before printing ${String(text)}; stderr: ${err}`));
        });
        check();
      }),
  };
}

/**
 * Runs to completion in the test's own process (test/support/cli-in-process.ts) and
 * collects everything: for what a one-shot command prints and its exit code.
 */
export function runCli(args: string[], env?: NodeJS.ProcessEnv): Promise<CliOutcome> {
  if (playsTheDemo(args)) return runCliChild(args, env);
  return runInProcess(args, { env: cliEnv(env) });
}

/**
 * A command that plays the demo scenario waits through its pauses (1.7 s), rather than
 * computing: as a child, its wait overlaps the other tests' runs, where in this process,
 * one run at a time, it would hold them up.
 */
function playsTheDemo(args: string[]): boolean {
  const plays = ['sim', 'logs', 'trace', 'exporter'].includes(args[0]) || args.includes('--trace');
  return plays && args.some((a) => a === 'demo' || a.endsWith('demo.yaml'));
}

/** Runs to completion as a child process and collects everything: for what only a process of its own shows. */
export async function runCliChild(args: string[], env?: NodeJS.ProcessEnv): Promise<CliOutcome> {
  const r = startCli(args, { ...(env ? { env } : {}) });
  const { code } = await r.exited;
  return { code, stdout: r.stdout(), stderr: r.stderr() };
}

export interface CliOutcome {
  /** The exit code; null for a child that a signal ended. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `nrictl ...args` with no terminal and no CI variable (so only the missing terminal keeps it from prompting). */
export function nrictl(...args: string[]): Promise<CliOutcome> {
  return runCli(args, { CI: undefined });
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `nrictl ...args` on a pseudo-terminal (util-linux `script`), typing `keys` in
 * turn: each entry waits until the screen shows its text, then sends its input.
 * `env` changes the child's environment (COLUMNS is 160 unless it says otherwise; an
 * undefined value unsets it); `columns` sets the terminal's own width (stty).
 */
export function nrictlOnTerminal(
  args: string[],
  keys: Array<{ after: string | RegExp; send: string }>,
  opts: { env?: NodeJS.ProcessEnv; columns?: number } = {},
): Promise<{ code: number | null; screen: string }> {
  // `exec`: node alone in the terminal's foreground group, whatever shell `script` starts.
  const size = opts.columns === undefined ? '' : `stty cols ${opts.columns} rows 50; `;
  const cmd = `${size}exec ${[process.execPath, BIN, ...args].map(shellQuote).join(' ')}`;
  const env = cliEnv({ CI: undefined, TERM: 'xterm', COLUMNS: '160', LINES: '40', SHELL: '/bin/sh', ...opts.env });
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env });
  let screen = '';
  let next = 0;
  const pump = (): void => {
    const k = keys[next];
    if (!k) return;
    const shown = typeof k.after === 'string' ? screen.includes(k.after) : k.after.test(screen);
    if (!shown) return;
    next++;
    const signal = SIGNAL_KEY.exec(k.send)?.[1] as NodeJS.Signals | undefined;
    // After its `exec`, the shell that `script` started is nrictl: script's only child.
    if (signal) for (const pid of childPids(child.pid!)) process.kill(pid, signal);
    else child.stdin.write(k.send);
    pump();
  };
  const onData = (d: string): void => {
    screen += d;
    pump();
  };
  child.stdout.setEncoding('utf8').on('data', onData);
  child.stderr.setEncoding('utf8').on('data', onData);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      child.stdin.destroy();
      resolve({ code, screen });
    }),
  );
}

function childPids(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

export const KEY = { down: '\x1b[B', enter: '\r', ctrlC: '\x03' } as const;

/**
 * A `send` of nrictlOnTerminal that sends nrictl a signal instead of typing, as a
 * supervisor (SIGTERM) or a closed terminal (SIGHUP) would.
 */
export const signalKey = (signal: NodeJS.Signals): string => `\u0000signal:${signal}`;
const SIGNAL_KEY = /^\u0000signal:(\w+)$/;
