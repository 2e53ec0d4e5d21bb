// What `nrictl logs` costs the node it watches, and how fast `nrictl sync dump` is on a
// large node. The simulator runs in this process and measures; the CLI runs as the
// built child process (`npm run bench` builds first). Prints figures, asserts nothing.
//   1. CreateContainer round trip: the simulator's whole createContainer() (Create and
//      PostCreate relayed to the plugins; neither the logger nor the control subscribes
//      to validation) without a logger, with a logger
//      whose stdout is a fast sink, and with one whose stdout nobody reads; plus the
//      logger's own answer time for CreateContainer as the simulator timed it.
//   2. The logger's RSS while 100,000 events stream through (fast and blocked stdout).
//   3. `sync dump` of 1,000 pods / 5,000 containers, process start to last byte.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { nri } from '../src/api/index.js';
import { generateScenario } from '../src/runtime/sim/generate.js';
import type { SimEvent } from '../src/runtime/events.js';
import { Runtime } from '../src/runtime/sim/runtime.js';
import { SimState } from '../src/runtime/sim/state.js';
import { container, createRoundTrips, synchronized } from './round-trips.js';

// NRICTL_BIN: measure another build of the CLI (e.g. a copy isolated from concurrent rebuilds).
const BIN = path.resolve(process.env.NRICTL_BIN ?? 'bin/run.js');
const ENV = { ...process.env, NO_COLOR: '1', NODE_ENV: 'production' };

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number): string => `${x.toFixed(3)} ms`;

async function startRuntime(state: { pods?: nri.IPodSandbox[]; containers?: nri.IContainer[] } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nrb-'));
  const runtime = new Runtime(new SimState(state), { socketPath: path.join(dir, 'nri.sock') });
  const events: SimEvent[] = [];
  runtime.on('event', (e: SimEvent) => {
    if (e.type === 'invoke' && e.event === 'CreateContainer') events.push(e);
  });
  const { socketPath } = await runtime.start();
  return {
    runtime,
    socketPath: socketPath!,
    invokes: events,
    stop: async () => {
      await runtime.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Sink = 'fast' | 'blocked';

/** Starts the logger; resolves once the simulator has it in its invocation list. */
async function startLogger(
  runtime: Runtime,
  socketPath: string,
  sink: Sink,
  args: string[] = [],
): Promise<ChildProcess> {
  // Fast: a pipe into `cat > /dev/null`, a reader in its own process (reading it here
  // would load the simulator's event loop and colour what it measures). Blocked: a pipe
  // this process never reads.
  const reader =
    sink === 'fast' ? spawn('sh', ['-c', 'exec cat > /dev/null'], { stdio: ['pipe', 'ignore', 'ignore'] }) : undefined;
  const child = spawn(process.execPath, [BIN, 'logs', '--socket', socketPath, ...args], {
    stdio: ['ignore', reader ? reader.stdin : 'pipe', 'pipe'],
    env: ENV,
  });
  if (reader) {
    reader.stdin.destroy(); // the logger holds the write end now
    child.once('exit', () => reader.kill());
  }
  child.stderr!.resume();
  await synchronized(runtime, '99-nrictl-logs', child);
  return child;
}

async function stopLogger(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  child.stdout?.resume();
  await exited;
}

async function latency(): Promise<void> {
  const N = 3000;
  const sim = await startRuntime({ pods: [{ id: 'bench-pod', name: 'bench-0', namespace: 'bench', uid: 'u' }] });
  await createRoundTrips(sim.runtime, 'bench-pod', 500); // warm the JIT
  const base = await createRoundTrips(sim.runtime, 'bench-pod', N);
  console.log(`CreateContainer round trip through the simulator, ${N} containers (create + post-create relayed):`);
  console.log(`  no plugin:                      p50 ${ms(pct(base, 50))}  p99 ${ms(pct(base, 99))}`);
  {
    // The floor: a plugin on the same SDK that answers every event at once and does nothing else.
    const control = spawn(
      process.execPath,
      ['--import', 'tsx', path.resolve('bench/null-plugin.ts'), sim.socketPath, 'nrictl-logs'],
      { stdio: ['ignore', 'ignore', 'inherit'], env: ENV },
    );
    await synchronized(sim.runtime, '99-nrictl-logs');
    await createRoundTrips(sim.runtime, 'bench-pod', 300);
    sim.invokes.length = 0;
    const withNull = await createRoundTrips(sim.runtime, 'bench-pod', N);
    const own = sim.invokes.map((e) => (e as { rttMs: number }).rttMs);
    await stopLogger(control);
    console.log(
      `  do-nothing SDK plugin (control): p50 ${ms(pct(withNull, 50))}  p99 ${ms(pct(withNull, 99))}` +
        `   added p50 ${ms(pct(withNull, 50) - pct(base, 50))}  p99 ${ms(pct(withNull, 99) - pct(base, 99))}`,
    );
    console.log(
      `    its CreateContainer answer as the simulator timed it: p50 ${ms(pct(own, 50))}  p99 ${ms(pct(own, 99))}  max ${ms(Math.max(...own))}`,
    );
  }
  for (const sink of ['fast', 'blocked'] as const) {
    const logger = await startLogger(sim.runtime, sim.socketPath, sink);
    await createRoundTrips(sim.runtime, 'bench-pod', 300); // warm the logger too
    sim.invokes.length = 0;
    const withLogger = await createRoundTrips(sim.runtime, 'bench-pod', N);
    const own = sim.invokes
      .filter((e) => e.type === 'invoke' && e.plugin === '99-nrictl-logs')
      .map((e) => (e as { rttMs: number }).rttMs);
    await stopLogger(logger);
    const label = sink === 'fast' ? 'logger, stdout read fast:' : 'logger, stdout never read:';
    console.log(
      `  ${label.padEnd(31)} p50 ${ms(pct(withLogger, 50))}  p99 ${ms(pct(withLogger, 99))}` +
        `   added p50 ${ms(pct(withLogger, 50) - pct(base, 50))}  p99 ${ms(pct(withLogger, 99) - pct(base, 99))}`,
    );
    console.log(
      `    the logger's CreateContainer answer as the simulator timed it: p50 ${ms(pct(own, 50))}  p99 ${ms(pct(own, 99))}  max ${ms(Math.max(...own))} (${own.length} calls)`,
    );
  }
  await sim.stop();
}

function rssKiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

async function memory(sink: Sink, format: string): Promise<void> {
  const EVENTS = 100_000;
  const sim = await startRuntime({ pods: [{ id: 'mem-pod', name: 'mem-0', namespace: 'bench', uid: 'u' }] });
  const logger = await startLogger(sim.runtime, sim.socketPath, sink, ['-o', format]);
  const samples: string[] = [`0k ${(rssKiB(logger.pid!) / 1024).toFixed(1)}`];
  let events = 0;
  let next = 10_000;
  const t0 = Date.now();
  while (events < EVENTS) {
    const c = container('mem-pod');
    await sim.runtime.createContainer('mem-pod', c); // CreateContainer, PostCreateContainer (validation is not subscribed)
    await sim.runtime.removeContainer(c.id!); // RemoveContainer
    events += 3;
    if (events >= next) {
      samples.push(`${next / 1000}k ${(rssKiB(logger.pid!) / 1024).toFixed(1)}`);
      next += 10_000;
    }
  }
  const secs = (Date.now() - t0) / 1000;
  let summary = '';
  logger.stderr!.removeAllListeners('data');
  logger.stderr!.setEncoding('utf8');
  logger.stderr!.on('data', (d: string) => (summary += d));
  await stopLogger(logger);
  await sim.stop();
  console.log(
    `logger RSS (MiB) over ${EVENTS.toLocaleString('en')} events, -o ${format}, stdout ${sink === 'fast' ? 'read fast' : 'never read'} (${Math.round(EVENTS / secs)} events/s):`,
  );
  console.log(`  ${samples.join(' | ')}`);
  const last = summary.trim().split('\n').at(-1);
  if (last) console.log(`  ${last}`);
}

async function dumpTiming(): Promise<void> {
  const { pods, containers } = generateScenario({ pods: 1000, containersPerPod: 5 });
  const sim = await startRuntime({ pods, containers });
  const run = (args: string[]): Promise<{ ms: number; bytes: number; code: number | null }> =>
    new Promise((resolve) => {
      const t0 = process.hrtime.bigint();
      const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'ignore'], env: ENV });
      let bytes = 0;
      child.stdout.on('data', (b: Buffer) => (bytes += b.length));
      child.on('close', (code) => resolve({ ms: Number(process.hrtime.bigint() - t0) / 1e6, bytes, code }));
    });
  const version = [];
  for (let i = 0; i < 3; i++) version.push((await run(['--version'])).ms);
  console.log(
    `sync dump of ${pods.length} pods / ${containers.length} containers, process start to last byte (median of 5; \`nrictl --version\` takes ${pct(version, 50).toFixed(0)} ms here):`,
  );
  for (const format of ['table', 'wide', 'json', 'yaml']) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 5; i++) {
      const r = await run(['sync', 'dump', '--socket', sim.socketPath, '-o', format]);
      if (r.code !== 0) throw new Error(`sync dump -o ${format} exited ${r.code}`);
      times.push(r.ms);
      bytes = r.bytes;
    }
    console.log(
      `  -o ${format.padEnd(5)}  median ${pct(times, 50).toFixed(0)} ms  min ${Math.min(...times).toFixed(0)} ms  (${(bytes / 2 ** 20).toFixed(1)} MiB)`,
    );
  }
  await sim.stop();
}

const only = process.env.LOGS_BENCH;
if (!only || only === 'latency') await latency();
if (!only || only === 'memory') {
  await memory('fast', 'text');
  await memory('blocked', 'json');
}
if (!only || only === 'dump') await dumpTiming();
