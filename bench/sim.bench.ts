// CreateContainer events per second through the simulator: 0, 1, 3 and 10 subscribed
// plugins, in-process (SDK stubs in this process) and as separate processes (pre-started
// children on fd 3); and the simulator's own cost per event (total time minus the
// plugins' round trips). Prints figures only.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Stub } from '../src/plugin/index.js';
import { Runtime, SimState, type SimEvent } from '../src/runtime/index.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSX = path.join(REPO, 'node_modules/tsx/dist/esm/index.mjs');
const EVENTS = Number(process.env.SIM_BENCH_EVENTS ?? 2000);

async function measure(label: string, runtime: Runtime, n: number): Promise<void> {
  let rtt = 0;
  runtime.on('event', (e: SimEvent) => {
    if (e.type === 'invoke') rtt += e.rttMs;
  });
  for (let i = 0; i < 200; i++) await runtime.createContainer('p', { id: `warm${i}`, name: 'w' }); // warm-up
  for (let i = 0; i < 200; i++) runtime.state.removeContainer(`warm${i}`);
  rtt = 0;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const r = await runtime.createContainer('p', { id: `c${i}`, name: `c${i}` });
    if (!r.ok) throw r.error;
  }
  const total = performance.now() - t0;
  const own = (total - rtt) / n;
  console.log(`${label.padEnd(34)} ${(n / (total / 1000)).toFixed(0).padStart(7)} events/s   ${((total / n) * 1000).toFixed(0).padStart(6)} µs/event   simulator's own ${(own * 1000).toFixed(0).padStart(5)} µs/event`);
}

async function inProcess(plugins: number): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'simb-'));
  const runtime = new Runtime(new SimState({ pods: [{ id: 'p', name: 'p', namespace: 'n' }] }), { socketPath: path.join(dir, 's') });
  await runtime.start();
  const stubs = Array.from({ length: plugins }, (_, i) => new Stub({ createContainer: () => ({}) }, { name: `b${i}`, index: String(10 + i), socketPath: runtime.socketPath! }));
  await Promise.all(stubs.map((s) => s.start()));
  while (runtime.plugins().length < plugins) await new Promise((r) => setTimeout(r, 5));
  await measure(`${plugins} plugin(s), in-process`, runtime, EVENTS);
  await Promise.all(stubs.map((s) => s.stop()));
  await runtime.stop();
  await rm(dir, { recursive: true, force: true });
}

async function children(plugins: number): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'simb-'));
  const pdir = path.join(dir, 'plugins');
  await (await import('node:fs/promises')).mkdir(pdir);
  const src = `#!/usr/bin/env -S ${process.execPath} --import ${TSX}
import { Stub } from '${path.join(REPO, 'src/plugin/index.ts')}';
await new Stub({ createContainer: () => ({}) }).start();
`;
  for (let i = 0; i < plugins; i++) {
    const f = path.join(pdir, `${10 + i}-child${i}`);
    await writeFile(f, src);
    await chmod(f, 0o755);
  }
  const runtime = new Runtime(new SimState({ pods: [{ id: 'p', name: 'p', namespace: 'n' }] }), {
    socketPath: path.join(dir, 's'),
    pluginPath: pdir,
    registrationTimeoutMs: 30_000,
  });
  await runtime.start();
  if (runtime.plugins().length !== plugins) throw new Error(`only ${runtime.plugins().length} of ${plugins} child plugins started`);
  await measure(`${plugins} plugin(s), child processes`, runtime, EVENTS);
  await runtime.stop();
  await rm(dir, { recursive: true, force: true });
}

console.log(`CreateContainer through the simulator, ${EVENTS} events each, one after the other`);
await inProcess(0);
for (const n of [1, 3, 10]) await inProcess(n);
for (const n of [1, 3, 10]) await children(n);
