// What a TypeScript plugin costs the node per event: the CPU time of a plugin process (the
// built SDK, as `nrictl plugin bundle` ships it) per CreateContainer it answers, p50 and
// p90, against a bare child that answers every read with 20 bytes (the floor under any
// plugin). Each figure is the plugin's CPU from one call to the next, so one whole
// cycle of its work: wake-up, read, decode, handler, encode, write. Every event a plugin
// handles is time added to a container's creation on a real node. Prints figures only.
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
