// For the update/evict command tests: a simulated runtime in this process on a real
// unix socket that records its events, and the built CLI (`node bin/run.js`, built by
// `npm test` / `npm run build`) as a child process, plain or on a pseudo-terminal.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { nri } from '../../src/api/index.js';
import type { SimEvent } from '../../src/runtime/events.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { loadScenario } from '../../src/runtime/scenario.js';
import { SimState } from '../../src/runtime/state.js';

export const BIN = path.resolve('bin/run.js');

/** The built commands must be at least as new as the sources, or the test would run old code. */
export function assertBuilt(...commands: string[]): void {
  for (const c of commands) {
    const built = path.resolve(`dist/commands/${c}.js`);
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(path.resolve(`commands/${c}.ts`)).mtimeMs) {
      throw new Error(`dist/commands/${c}.js is missing or older than commands/${c}.ts: run npm run build (npm test does)`);
    }
  }
}

export interface Sim {
  runtime: Runtime;
  socketPath: string;
  events: SimEvent[];
  of<T extends SimEvent['type']>(type: T): Array<Extract<SimEvent, { type: T }>>;
  container(id: string): nri.IContainer;
  /** Deep copy of every pod and container: compare before/after. */
  snapshot(): { pods: nri.IPodSandbox[]; containers: nri.IContainer[] };
  stop(): Promise<void>;
}

export async function startDemoSim(): Promise<Sim> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nru-'));
  const s = await loadScenario('examples/demo.yaml');
  const runtime = new Runtime(new SimState({ pods: s.pods, containers: s.containers }), { socketPath: path.join(dir, 'nri.sock') });
  const events: SimEvent[] = [];
  runtime.on('event', (e: SimEvent) => events.push(e));
  const { socketPath } = await runtime.start();
  return {
    runtime,
    socketPath: socketPath!,
    events,
    of: <T extends SimEvent['type']>(type: T) => events.filter((e): e is Extract<SimEvent, { type: T }> => e.type === type),
    container: (id) => JSON.parse(JSON.stringify(runtime.state.mustContainer(id))) as nri.IContainer,
    snapshot: () => runtime.state.snapshot(),
    stop: async () => {
      await runtime.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const childEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.CI;
  return env;
};

/** Runs `nrictl ...args` with no terminal (stdin, stdout and stderr are pipes). */
export function nrictl(...args: string[]): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: childEnv() });
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `nrictl ...args` on a pseudo-terminal (util-linux `script`), typing `keys` in
 * turn: each entry waits until the screen shows its text, then sends its input.
 */
export function nrictlOnTerminal(args: string[], keys: Array<{ after: string | RegExp; send: string }>): Promise<{ code: number | null; screen: string }> {
  const cmd = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...childEnv(), TERM: 'xterm', COLUMNS: '160', LINES: '40' } });
  let screen = '';
  let next = 0;
  const pump = (): void => {
    const k = keys[next];
    if (!k) return;
    const shown = typeof k.after === 'string' ? screen.includes(k.after) : k.after.test(screen);
    if (!shown) return;
    next++;
    child.stdin.write(k.send);
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

export const KEY = { down: '\x1b[B', enter: '\r' } as const;
