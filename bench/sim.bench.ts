// CreateContainer events per second through the simulator: 0, 1, 3 and 10 subscribed
// plugins, in-process (SDK stubs in this process) and as separate processes (pre-started
// children on fd 3); and the simulator's own cost per relayed call. Prints figures only.
//
// Own cost, defined: with the plugins in child processes, the CPU time (user + system, all
// threads: getrusage via process.cpuUsage) the simulator's process spends on one
// createContainer() call, divided by the plugin calls that event relayed. The plugins'
// time is in other processes and not counted; waiting for them is idle time, not counted
// either. So the figure is what the simulator itself costs (state copies, merging, protobuf,
// ttrpc, mux, syscalls, GC) per relayed call; on a shared machine it swings far less than
// wall-clock times, which follow the other processes (still ±30% between runs here: compare
// runs taken back to back). p50 and p90 over the measured events.
// It does include what waking up costs: the simulator sleeps while a plugin works, and on
// a machine shared with busy processes it wakes to cold caches; the same calls cost less
// in-process, where nothing sleeps ("CPU with plugins", both ends of each call counted).
//
// Each child-process row is read against the transport floor beside it (bench/
// transport-floor.ts): a bare round trip to as many child processes, measured the same
// way. "above the floor" is what the simulator's own code costs per call on top of it.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Stub } from '../src/plugin/index.js';
import { Runtime, SimState, type SimEvent } from '../src/runtime/index.js';
import { writeChildPlugin } from './child-plugin.js';
import { goFloor, nodeFloor, type Floor } from './transport-floor.js';

const EVENTS = Number(process.env.SIM_BENCH_EVENTS ?? 2000);
const WARM_UP = 300;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/**
 * Events per second, and CPU µs per event and per relayed plugin call (p50, p90): the
 * simulator's own when `cpu` is 'own'; with in-process plugins ('together') the same
 * process runs both ends, so the figure is the simulator and its plugins together.
 */
async function measure(
  label: string,
  runtime: Runtime,
  n: number,
  cpu: 'own' | 'together',
): Promise<number | undefined> {
  let calls = 0;
  runtime.on('event', (e: SimEvent) => {
    if (e.type === 'invoke') calls++;
  });
  for (let i = 0; i < WARM_UP; i++) await runtime.createContainer('p', { id: `warm${i}`, name: 'w' });
  for (let i = 0; i < WARM_UP; i++) runtime.state.removeContainer(`warm${i}`);
  const perCall: number[] = [];
  const perEvent: number[] = [];
  calls = 0;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const before = calls;
    const cpu0 = process.cpuUsage();
    const r = await runtime.createContainer('p', { id: `c${i}`, name: `c${i}` });
    const cpu = process.cpuUsage(cpu0);
    if (!r.ok) throw r.error;
    const us = cpu.user + cpu.system;
    perEvent.push(us);
    if (calls > before) perCall.push(us / (calls - before));
  }
  const total = performance.now() - t0;
  let line = `${label.padEnd(32)} ${(n / (total / 1000)).toFixed(0).padStart(7)} events/s   ${((total / n) * 1000).toFixed(0).padStart(6)} µs/event wall`;
  line += `   ${cpu === 'own' ? 'own CPU' : 'CPU with plugins'} per event p50 ${quantile(perEvent, 0.5).toFixed(0).padStart(4)} µs`;
  const p50 = perCall.length > 0 ? quantile(perCall, 0.5) : undefined;
  if (p50 !== undefined)
    line += `   per relayed call p50 ${p50.toFixed(1).padStart(5)} µs (p90 ${quantile(perCall, 0.9).toFixed(1)})`;
  console.log(line);
  return p50;
}

async function inProcess(plugins: number): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'simb-'));
  const runtime = new Runtime(new SimState({ pods: [{ id: 'p', name: 'p', namespace: 'n' }] }), {
    socketPath: path.join(dir, 's'),
  });
  await runtime.start();
  const stubs = Array.from(
    { length: plugins },
    (_, i) =>
      new Stub(
        { createContainer: () => ({}) },
        { name: `b${i}`, index: String(10 + i), socketPath: runtime.socketPath! },
      ),
  );
  await Promise.all(stubs.map((s) => s.start()));
  while (runtime.plugins().length < plugins) await new Promise((r) => setTimeout(r, 5));
  // With no plugin the CPU time is all the simulator's; with in-process plugins it is not.
  await measure(`${plugins} plugin(s), in-process`, runtime, EVENTS, plugins === 0 ? 'own' : 'together');
  await Promise.all(stubs.map((s) => s.stop()));
  await runtime.stop();
  await rm(dir, { recursive: true, force: true });
}

async function children(plugins: number): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'simb-'));
  const pdir = path.join(dir, 'plugins');
  await mkdir(pdir);
  for (let i = 0; i < plugins; i++)
    await writeChildPlugin(
      path.join(pdir, `${10 + i}-child${i}`),
      'await new Stub({ createContainer: () => ({}) }).start();',
    );
  const runtime = new Runtime(new SimState({ pods: [{ id: 'p', name: 'p', namespace: 'n' }] }), {
    socketPath: path.join(dir, 's'),
    pluginPath: pdir,
    registrationTimeoutMs: 30_000,
  });
  await runtime.start();
  if (runtime.plugins().length !== plugins)
    throw new Error(`only ${runtime.plugins().length} of ${plugins} child plugins started`);
  const own = await measure(`${plugins} plugin(s), child processes`, runtime, EVENTS, 'own');
  await runtime.stop();
  await rm(dir, { recursive: true, force: true });
  // Taken right after, with as many children, so that both see the same machine.
  const floor = await nodeFloor(plugins, EVENTS);
  const go = goFloor(plugins, EVENTS);
  const goText = 'skipped' in go ? `Go: ${go.skipped}` : `Go's ${describe(go)}`;
  console.log(
    `${''.padEnd(32)} transport floor per call: Node's ${describe(floor)}, ${goText}; simulator above Node's floor p50 ${own === undefined ? '?' : (own - floor.p50).toFixed(1)} µs`,
  );
}

function describe(f: Floor): string {
  return `p50 ${f.p50.toFixed(1)} µs (p90 ${f.p90.toFixed(1)})`;
}

console.log(`CreateContainer through the simulator, ${EVENTS} events each, one after the other`);
console.log(
  "own CPU: the simulator process's CPU time (user+system, all threads) per createContainer(), and per plugin call it relayed;",
);
console.log(
  'plugins in child processes, so none of their time is counted (see the head of bench/sim.bench.ts); with in-process',
);
console.log('plugins, "CPU with plugins" counts both ends of every call, which no wake-up of another process inflates');
await inProcess(0);
for (const n of [1, 3, 10]) await inProcess(n);
for (const n of [1, 3, 10]) await children(n);
