// What a TypeScript plugin costs the node per event: the CPU time of a plugin process (the
// built SDK, as `nrictl plugin bundle` ships it) per CreateContainer it answers, p50 and
// p90, against a bare child that answers every read with 20 bytes (the floor under any
// plugin). Each figure is the plugin's CPU from one call to the next, so one whole
// cycle of its work: wake-up, read, decode, handler, encode, write. Every event a plugin
// handles is time added to a container's creation on a real node. Prints figures only.
//
// Then a plugin's first 1,000 events after it starts, as the runtime sees them (the
// latency of each CreateContainer round trip in the simulator, in a fresh plugin process
// each run): whether a new plugin's first pods cost what its later ones do. With
// SDK_BASELINE the baseline build's runs are taken in turns with this build's. A warm
// start (the SDK running its own hot path before it registers) was measured this way and
// left out: it did not help reliably (branch warm21-warmstart holds it).
// SDK_BENCH_PART=cpu or =first runs only one part.
//
// SDK_BASELINE=DIR (another build's dist/, e.g. of an older commit) adds its rows, run in
// turns with this build's so that the machine's drift falls on both alike: a change to
// the SDK is judged by the medians of such a run, never by two runs taken at other times.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Runtime, SimState } from '../src/runtime/index.js';
import { BUILT_DIST, writeChildPlugin } from './child-plugin.js';
import { roundTrips, spawnEchoChild } from './transport-floor.js';

const EVENTS = Number(process.env.SDK_BENCH_EVENTS ?? 3000);
const WARM_UP = 300;
const ROUNDS = Number(process.env.SDK_BENCH_ROUNDS ?? 5);
const FIRST_EVENTS = 1000;
const FIRST_ROUNDS = Number(process.env.SDK_FIRST_ROUNDS ?? 8);
const PART = process.env.SDK_BENCH_PART ?? 'all';
const BASELINE = process.env.SDK_BASELINE ? path.resolve(process.env.SDK_BASELINE) : undefined;

// Kept in the child: CPU per cycle after the warm-up, written out as "p50 p90" at the end.
const RECORDER = (out: string) => `import { writeFileSync } from 'node:fs';
let calls = 0, last = 0;
const cycles = [];
const tick = () => { const u = process.cpuUsage(); const now = u.user + u.system; if (++calls > ${WARM_UP}) cycles.push(now - last); last = now; };
// However the process ends: the runtime closing the connection or SIGTERM.
process.on('exit', () => { cycles.sort((a, b) => a - b); writeFileSync(${JSON.stringify(out)}, cycles[cycles.length >> 1] + ' ' + cycles[Math.floor(cycles.length * 0.9)]); });
process.on('SIGTERM', () => process.exit(0));`;

async function plugin(handler: 'plain' | 'async', dist = BUILT_DIST): Promise<[number, number]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sdkb-'));
  const out = path.join(dir, 'cycles');
  const pdir = path.join(dir, 'plugins');
  await mkdir(pdir);
  const answer =
    handler === 'plain' ? '(pod, ctr) => { tick(); return {}; }' : 'async (pod, ctr) => { tick(); return {}; }';
  await writeChildPlugin(
    path.join(pdir, '10-measured'),
    `${RECORDER(out)}\nawait new Stub({ createContainer: ${answer} }).start();`,
    dist,
  );
  const runtime = new Runtime(new SimState({ pods: [{ id: 'p', name: 'p', namespace: 'n' }] }), {
    socketPath: path.join(dir, 's'),
    pluginPath: pdir,
    registrationTimeoutMs: 30_000,
  });
  await runtime.start();
  for (let i = 0; i < WARM_UP + EVENTS; i++) {
    const r = await runtime.createContainer('p', { id: `c${i}`, name: `c${i}` });
    if (!r.ok) throw r.error;
    runtime.state.removeContainer(`c${i}`);
  }
  await runtime.stop();
  const figures = await readFile(out, 'utf8');
  await rm(dir, { recursive: true, force: true });
  return figures.split(' ').map(Number) as [number, number];
}

async function bareChild(): Promise<[number, number]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sdkb-'));
  const out = path.join(dir, 'cycles');
  const { child, socket } = spawnEchoChild({ prelude: RECORDER(out), onRead: 'tick();' });
  const roundTrip = roundTrips([socket]);
  for (let i = 0; i < WARM_UP + EVENTS; i++) await roundTrip(socket);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  socket.end();
  await exited;
  const figures = await readFile(out, 'utf8');
  await rm(dir, { recursive: true, force: true });
  return figures.split(' ').map(Number) as [number, number];
}

type Figures = [number, number];
const show = (xs: Figures[]) => {
  const p50s = xs.map(([p50]) => p50).sort((a, b) => a - b);
  return `median ${p50s[p50s.length >> 1].toFixed(0).padStart(3)}   runs: ${xs.map(([p50, p90]) => `${p50.toFixed(0)} (p90 ${p90.toFixed(0)})`).join(', ')}`;
};
async function cpuPart(): Promise<void> {
  console.log(
    `A plugin's CPU per CreateContainer, in its own process, ${EVENTS} events a run, ${ROUNDS} runs taken in turns (µs, p50 of each run)`,
  );
  if (BASELINE) console.log(`baseline SDK: ${BASELINE}`);
  const rows = new Map<string, Figures[]>();
  const add = (label: string, f: Figures) => rows.set(label, [...(rows.get(label) ?? []), f]);
  for (let i = 0; i < ROUNDS; i++) {
    for (const handler of ['plain', 'async'] as const) {
      const label = handler === 'plain' ? 'SDK plugin, handler returns its answer' : 'SDK plugin, async handler';
      add(label, await plugin(handler));
      if (BASELINE) add(`${label}, baseline SDK`, await plugin(handler, BASELINE));
    }
    add('bare child answering 20 bytes (floor)', await bareChild());
  }
  for (const [label, figures] of rows) console.log(`${label.padEnd(52)} ${show(figures)}`);
}

interface FirstRun {
  /** runtime.start(): spawning the plugin until it is registered and synchronized, ms. */
  startMs: number;
  /** Each event's round trip as the runtime saw it, µs, in order. */
  latencies: number[];
}

/** A fresh plugin process; its first FIRST_EVENTS CreateContainer events, timed by the runtime. */
async function firstEvents(dist: string): Promise<FirstRun> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sdkf-'));
  const pdir = path.join(dir, 'plugins');
  await mkdir(pdir);
  // The README's example handler: an annotation per container.
  await writeChildPlugin(
    path.join(pdir, '10-annotate'),
    `await new Stub({ createContainer: (pod, ctr) => ({ adjust: { annotations: { 'example.com/seen': pod.namespace + '/' + ctr.name } } }) }).start();`,
    dist,
  );
  const runtime = new Runtime(new SimState({ pods: [{ id: 'p', name: 'p', namespace: 'n' }] }), {
    socketPath: path.join(dir, 's'),
    pluginPath: pdir,
    registrationTimeoutMs: 30_000,
  });
  const t0 = performance.now();
  await runtime.start();
  const startMs = performance.now() - t0;
  const latencies: number[] = [];
  for (let i = 0; i < FIRST_EVENTS; i++) {
    const before = performance.now();
    const r = await runtime.createContainer('p', { id: `c${i}`, name: `c${i}` });
    latencies.push((performance.now() - before) * 1000);
    if (!r.ok) throw r.error;
    runtime.state.removeContainer(`c${i}`);
  }
  await runtime.stop();
  await rm(dir, { recursive: true, force: true });
  return { startMs, latencies };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))];
};
const median = (xs: number[]) => quantile(xs, 0.5);

async function firstPart(): Promise<void> {
  const builds = new Map<string, string>([['this build', BUILT_DIST]]);
  if (BASELINE) builds.set('baseline SDK', BASELINE);
  console.log(
    `\nA new plugin's first ${FIRST_EVENTS} CreateContainer events as the runtime times them (µs),` +
      ` ${FIRST_ROUNDS} runs${BASELINE ? ' of each build, taken in turns (order swapped every round)' : ''},` +
      ' after one discarded run; medians over runs',
  );
  // The first run warms this process (the simulator's side); it is not counted.
  await firstEvents(BUILT_DIST);
  const runs = new Map<string, FirstRun[]>([...builds.keys()].map((label) => [label, []]));
  const labels = [...builds.keys()];
  for (let i = 0; i < FIRST_ROUNDS; i++) {
    for (const label of i % 2 === 0 ? labels : [...labels].reverse()) {
      runs.get(label)!.push(await firstEvents(builds.get(label)!));
    }
  }
  const cols = ['1-100 p50', '1-100 p99', '901-1000 p50', '901-1000 p99', 'all p50', 'total ms', 'start ms'];
  console.log(`${''.padEnd(16)}${cols.map((c) => c.padStart(14)).join('')}`);
  for (const [label, rs] of runs) {
    const figures = [
      median(rs.map((r) => median(r.latencies.slice(0, 100)))),
      median(rs.map((r) => quantile(r.latencies.slice(0, 100), 0.99))),
      median(rs.map((r) => median(r.latencies.slice(900, 1000)))),
      median(rs.map((r) => quantile(r.latencies.slice(900, 1000), 0.99))),
      median(rs.map((r) => median(r.latencies))),
      median(rs.map((r) => r.latencies.reduce((a, b) => a + b, 0) / 1000)),
      median(rs.map((r) => r.startMs)),
    ];
    console.log(`${label.padEnd(16)}${figures.map((f) => f.toFixed(0).padStart(14)).join('')}`);
  }
}

if (PART !== 'first') await cpuPart();
if (PART !== 'cpu') await firstPart();
