// What recording costs the node, and how replaying compares with a live simulation. The
// simulator runs in this process and measures; the CLI runs as the built child process
// (`npm run bench` builds first). Prints figures, asserts nothing.
//   1. CreateContainer round trip (create + post-create relayed) with a logger, without
//      and with --record, at 1 and 10 events per second and flat out; and the logger's
//      own answer as the simulator timed it. The goal: --record within 5%.
//   2. The recording logger's RSS while 100,000 events stream through.
//   3. Replay speed: the same events as a recording (sim --replay) and as a scenario's
//      script (sim SCENARIO), to one pre-started do-nothing plugin, events per second.
//   4. Peak RSS of sim --replay over 10,000 and 100,000 recorded events.
//   RECORD_BENCH=cost|memory|replay runs one part.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Event } from '../src/api/index.js';
import { RecordingWriter } from '../src/recording/index.js';
import type { SimEvent } from '../src/runtime/events.js';
import { Runtime } from '../src/runtime/sim/runtime.js';
import { SimState } from '../src/runtime/sim/state.js';
import { container, createRoundTrips, synchronized } from './round-trips.js';

const BIN = path.resolve(process.env.NRICTL_BIN ?? 'bin/run.js');
const ENV = { ...process.env, NO_COLOR: '1', NODE_ENV: 'production' };
const work = mkdtempSync(path.join(os.tmpdir(), 'nrb-rec-'));

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number): string => `${x.toFixed(3)} ms`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

function procKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}
const mib = (kib: number): string => `${(kib / 1024).toFixed(1)} MiB`;

async function startRuntime() {
  const dir = mkdtempSync(path.join(work, 'sim-'));
  const runtime = new Runtime(
    new SimState({ pods: [{ id: 'bench-pod', name: 'bench-0', namespace: 'bench', uid: 'u' }] }),
    {
      socketPath: path.join(dir, 'nri.sock'),
    },
  );
  const invokes: number[] = [];
  runtime.on('event', (e: SimEvent) => {
    if (e.type === 'invoke' && e.event === 'CreateContainer' && e.plugin === '99-nrictl-logs') invokes.push(e.rttMs);
  });
  const { socketPath } = await runtime.start();
  return { runtime, socketPath: socketPath!, invokes };
}

/** A logger (at index 99 either way, so both sit where the same plugins precede them) into a fast reader. */
async function startLogger(runtime: Runtime, socketPath: string, record: string | undefined): Promise<ChildProcess> {
  const reader = spawn('sh', ['-c', 'exec cat > /dev/null'], { stdio: ['pipe', 'ignore', 'ignore'] });
  const args = ['logs', '--socket', socketPath, '--plugin-index', '99', ...(record ? ['--record', record] : [])];
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', reader.stdin, 'pipe'], env: ENV });
  reader.stdin.destroy();
  child.once('exit', () => reader.kill());
  child.stderr.setEncoding('utf8');
  await synchronized(runtime, '99-nrictl-logs', child);
  return child;
}

async function stopLogger(child: ChildProcess): Promise<string> {
  let said = '';
  child.stderr!.on('data', (d: string) => (said += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return said.trim().split('\n').at(-1) ?? '';
}

/** Round trips at `perSecond` (Infinity: back to back). */
async function paced(runtime: Runtime, n: number, perSecond: number): Promise<number[]> {
  if (perSecond === Infinity) return createRoundTrips(runtime, 'bench-pod', n);
  const times: number[] = [];
  const gap = 1000 / perSecond;
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const due = start + i * gap - performance.now();
    if (due > 0) await sleep(due);
    times.push(...(await createRoundTrips(runtime, 'bench-pod', 1)));
  }
  return times;
}

let costFiles = 0;

async function cost(): Promise<void> {
  const sim = await startRuntime();
  await createRoundTrips(sim.runtime, 'bench-pod', 500); // warm the JIT
  console.log(
    'CreateContainer round trip with a logger at index 99, without and with --record (create + post-create relayed):',
  );
  const rates: Array<[string, number, number]> = [
    ['1 event/s', 1, 30],
    ['10 events/s', 10, 200],
    ['flat out', Infinity, 3000],
  ];
  for (const [label, rate, n] of rates) {
    const rows: Array<{ with: boolean; trips: number[]; own: number[]; said: string }> = [];
    // Alternated, twice each, so that a slow moment of the machine does not fall on one side only.
    for (const withRecord of [false, true, false, true]) {
      const file = withRecord ? path.join(work, `cost-${++costFiles}.jsonl`) : undefined;
      const logger = await startLogger(sim.runtime, sim.socketPath, file);
      await createRoundTrips(sim.runtime, 'bench-pod', 200); // warm the logger
      sim.invokes.length = 0;
      const trips = await paced(sim.runtime, Math.ceil(n / 2), rate);
      const own = [...sim.invokes];
      const said = await stopLogger(logger);
      rows.push({ with: withRecord, trips, own, said });
    }
    const side = (w: boolean) => ({
      trips: rows.filter((r) => r.with === w).flatMap((r) => r.trips),
      own: rows.filter((r) => r.with === w).flatMap((r) => r.own),
    });
    const a = side(false);
    const b = side(true);
    const change = (x: number, y: number) => `${y >= x ? '+' : ''}${(((y - x) / x) * 100).toFixed(1)}%`;
    console.log(`  ${label} (${a.trips.length} + ${b.trips.length} containers):`);
    console.log(
      `    without --record: p50 ${ms(pct(a.trips, 50))}  p99 ${ms(pct(a.trips, 99))}   logger's answer p50 ${ms(pct(a.own, 50))}`,
    );
    console.log(
      `    with --record:    p50 ${ms(pct(b.trips, 50))}  p99 ${ms(pct(b.trips, 99))}   logger's answer p50 ${ms(pct(b.own, 50))}` +
        `   round trip p50 ${change(pct(a.trips, 50), pct(b.trips, 50))}, p99 ${change(pct(a.trips, 99), pct(b.trips, 99))}`,
    );
    console.log(`    ${rows.at(-1)!.said}`);
  }
  await sim.runtime.stop();
}

async function recordingMemory(): Promise<void> {
  const EVENTS = 100_000;
  const sim = await startRuntime();
  const file = path.join(work, 'memory.jsonl.gz');
  const logger = await startLogger(sim.runtime, sim.socketPath, file);
  const samples: string[] = [`0k ${mib(procKiB(logger.pid!, 'VmRSS'))}`];
  let events = 0;
  let next = 20_000;
  const t0 = Date.now();
  while (events < EVENTS) {
    const c = container('bench-pod');
    await sim.runtime.createContainer('bench-pod', c); // CreateContainer, PostCreateContainer
    await sim.runtime.removeContainer(c.id!); // RemoveContainer
    events += 3;
    if (events >= next) {
      samples.push(`${next / 1000}k ${mib(procKiB(logger.pid!, 'VmRSS'))}`);
      next += 20_000;
    }
  }
  const secs = (Date.now() - t0) / 1000;
  const peak = procKiB(logger.pid!, 'VmHWM');
  const said = await stopLogger(logger);
  await sim.runtime.stop();
  console.log(
    `logs --record (gzip) RSS over ${EVENTS.toLocaleString('en')} events flat out (${Math.round(EVENTS / secs)} events/s):`,
  );
  console.log(`  ${samples.join(' | ')}   peak ${mib(peak)}`);
  console.log(`  ${said}`);
}

/** A recording of `cycles` containers created, started, stopped and removed in one pod: 6 events each. */
async function writeRecording(file: string, cycles: number): Promise<number> {
  const pod = { id: 'bench-pod', name: 'bench-0', namespace: 'bench', uid: 'u' };
  const w = await RecordingWriter.open({ file, force: true, capacity: 1 << 20 });
  const { nri } = await import('../src/api/index.js');
  w.sync([Buffer.from(nri.SynchronizeRequest.encode({ pods: [pod] }).finish())]);
  w.begin({
    nrictlVersion: 'bench',
    source: 'logs',
    runtime: { name: 'nrictl-sim', version: '0.1.0' },
    plugin: '00-bench',
    events: 0x7ff,
  });
  const containers: ReturnType<typeof container>[] = [];
  for (let i = 0; i < cycles; i++) {
    const c = container('bench-pod');
    containers.push(c);
    for (const e of [
      Event.CREATE_CONTAINER,
      Event.POST_CREATE_CONTAINER,
      Event.START_CONTAINER,
      Event.POST_START_CONTAINER,
      Event.STOP_CONTAINER,
      Event.REMOVE_CONTAINER,
    ])
      w.event(e, { pod, container: c });
    // Let the writer drain every so often (its queue is large, not endless).
    if (i % 2000 === 1999) await sleep(0);
  }
  const s = await w.end();
  if (s.dropped > 0) throw new Error(`the bench's own recording dropped ${s.dropped}`);
  return s.written;
}

function writeScenario(file: string, cycles: number): void {
  const lines = ['pods:', '  - {id: bench-pod, name: bench-0, namespace: bench, uid: u}', 'containers: []', 'steps:'];
  for (let i = 0; i < cycles; i++) {
    const id = `live-${i}`;
    lines.push(
      `  - create: {id: ${id}, pod: bench-pod, name: worker-${i % 50}, labels: {io.kubernetes.container.name: worker-${i % 50}, io.kubernetes.pod.namespace: bench, app: bench}, args: [/app/server, --port=8080], env: [PATH=/usr/bin:/bin, GOMAXPROCS=2], resources: {cpu_shares: 512, cpu_quota: 50000, cpu_period: 100000, cpus: "0-3", memory_limit: 268435456}}`,
      `  - start: ${id}`,
      `  - stop: ${id}`,
      `  - remove: ${id}`,
    );
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
}

/** A plugin directory with one pre-started SDK plugin that answers every event at once. */
function nullPluginDir(): string {
  const dir = mkdtempSync(path.join(work, 'plugins-'));
  const sdk = path.resolve('dist/src/plugin/index.js');
  writeFileSync(
    path.join(dir, '10-null'),
    `#!${process.execPath}\nconst { Stub, EVENT_HANDLER_NAMES } = await import(${JSON.stringify(sdk)});\n` +
      `const h = {}; for (const [n] of EVENT_HANDLER_NAMES) if (n !== 'validateContainerAdjustment') h[n] = () => {};\n` +
      `await new Stub({ ...h, onClose: () => process.exit(0) }).start();\n`,
    { mode: 0o755 },
  );
  return dir;
}

/** Runs `nrictl ARGS` with stdout to /dev/null; wall time and peak RSS (sampled from /proc). */
function runSim(args: string[]): Promise<{ ms: number; peakKiB: number; code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: ENV });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    let peakKiB = 0;
    const sampler = setInterval(() => {
      const hwm = procKiB(child.pid!, 'VmHWM');
      if (hwm > peakKiB) peakKiB = hwm;
    }, 50);
    child.on('close', (code) => {
      clearInterval(sampler);
      resolve({ ms: performance.now() - t0, peakKiB, code, stderr });
    });
  });
}

async function replay(): Promise<void> {
  const plugins = nullPluginDir();
  const CYCLES = 5000; // 30,000 events, 20,000 steps
  const rec = path.join(work, 'speed.jsonl');
  const events = await writeRecording(rec, CYCLES);
  const scenario = path.join(work, 'speed.yaml');
  writeScenario(scenario, CYCLES);
  const common = ['--plugin-dir', plugins, '--plugin-output', 'none', '-o', 'json', '--no-interactive'];
  const times = { replay: [] as number[], live: [] as number[] };
  for (let i = 0; i < 3; i++) {
    const r = await runSim(['sim', '--replay', rec, ...common]);
    if (r.code !== 0) throw new Error(`sim --replay exited ${r.code}: ${r.stderr}`);
    times.replay.push(r.ms);
    const l = await runSim(['sim', scenario, ...common]);
    if (l.code !== 0) throw new Error(`sim exited ${l.code}: ${l.stderr}`);
    times.live.push(l.ms);
  }
  const rate = (t: number[]) => Math.round(events / (pct(t, 50) / 1000)).toLocaleString('en');
  console.log(
    `Replay speed: ${events.toLocaleString('en')} recorded events (${CYCLES * 4} steps) to one do-nothing pre-started plugin, process start to end, median of 3:`,
  );
  console.log(
    `  sim --replay (checks the file, then replays it): ${pct(times.replay, 50).toFixed(0)} ms, ${rate(times.replay)} events/s`,
  );
  console.log(
    `  sim SCENARIO (the same steps as a script):       ${pct(times.live, 50).toFixed(0)} ms, ${rate(times.live)} events/s`,
  );

  console.log('Peak RSS of sim --replay (the file read a line at a time):');
  for (const cycles of [1667, 16667]) {
    const file = path.join(work, `mem-${cycles}.jsonl.gz`);
    const n = await writeRecording(file, cycles);
    const r = await runSim(['sim', '--replay', file, ...common]);
    if (r.code !== 0) throw new Error(`sim --replay exited ${r.code}: ${r.stderr}`);
    console.log(
      `  ${n.toLocaleString('en').padStart(7)} events: peak ${mib(r.peakKiB)} (${(r.ms / 1000).toFixed(1)} s)`,
    );
  }
}

try {
  const only = process.env.RECORD_BENCH;
  if (!only || only === 'cost') await cost();
  if (!only || only === 'memory') await recordingMemory();
  if (!only || only === 'replay') await replay();
} finally {
  rmSync(work, { recursive: true, force: true });
}
