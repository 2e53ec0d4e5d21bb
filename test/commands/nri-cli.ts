// Shared by the tests of the connecting commands: a simulated runtime in this process
// on a real unix socket, and the built CLI (`node bin/run.js`, built by `npm test`) as
// a child process.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Runtime, type RuntimeOptions } from '../../src/runtime/runtime.js';
import { loadScenario } from '../../src/runtime/scenario.js';
import { SimState } from '../../src/runtime/state.js';
import type { SimEvent } from '../../src/runtime/events.js';
import type { nri } from '../../src/api/index.js';

// NRICTL_BIN: test another build of the CLI (one isolated from a concurrent rebuild of dist/).
export const BIN = path.resolve(process.env.NRICTL_BIN ?? 'bin/run.js');

export function tempDir(prefix = 'nrc-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface SimHandle {
  runtime: Runtime;
  socketPath: string;
  events: SimEvent[];
  /** Resolves when a plugin of this full name ("99-nrictl-logs") is synchronized and in the invocation list. */
  synchronized(plugin: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startRuntime(state: { pods?: nri.IPodSandbox[]; containers?: nri.IContainer[] } = {}, opts: RuntimeOptions = {}): Promise<SimHandle> {
  const t = tempDir('nrs-');
  const runtime = new Runtime(new SimState(state), { socketPath: path.join(t.dir, 'nri.sock'), ...opts });
  const events: SimEvent[] = [];
  runtime.on('event', (e: SimEvent) => events.push(e));
  const { socketPath } = await runtime.start();
  return {
    runtime,
    socketPath: socketPath!,
    events,
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

/** Starts `nrictl ...args`; with collectStdout false, nobody reads its stdout until stdout() starts it. */
export function startCli(args: string[], opts: { collectStdout?: boolean; env?: NodeJS.ProcessEnv } = {}): CliRun {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // NODE_ENV=test (set by vitest) makes oclif look for TypeScript sources; run the build as users do.
    env: { ...process.env, NODE_ENV: 'production', NO_COLOR: '1', ...opts.env },
  });
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

/** Runs to completion and collects everything. */
export async function runCli(args: string[], env?: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const r = startCli(args, { ...(env ? { env } : {}) });
  const { code } = await r.exited;
  return { code, stdout: r.stdout(), stderr: r.stderr() };
}
