// The simulator with N pre-started child plugins that log one line per event on stderr,
// the way the Go sample plugins do: CreateContainer + PostCreateContainer +
// RemoveContainer cycles, with the plugins' output relayed as events and rendered as
// `nrictl sim` renders them (--plugin-output lines, to a sink that discards), against
// the same run with the output not read at all (--plugin-output none). Prints figures only.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { formatSimEvent } from '../src/views/index.js';
import { Runtime, SimState, type SimEvent } from '../src/runtime/index.js';
import { writeChildPlugin } from './child-plugin.js';

const CYCLES = Number(process.env.SIM_BENCH_CYCLES ?? 500);

const PLUGIN = `const log = (what, ctr) => process.stderr.write(\`\${new Date().toISOString()} \${what} \${ctr.id}\\n\`);
await new Stub({
  createContainer: (pod, ctr) => { log('CreateContainer', ctr); return {}; },
  postCreateContainer: (pod, ctr) => log('PostCreateContainer', ctr),
  removeContainer: (pod, ctr) => log('RemoveContainer', ctr),
}).start();`;

async function run(plugins: number, output: 'events' | 'none'): Promise<{ perSec: number; lines: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'simlog-'));
  const pdir = path.join(dir, 'plugins');
  await mkdir(pdir);
  for (let i = 0; i < plugins; i++) await writeChildPlugin(path.join(pdir, `${10 + i}-logger${i}`), PLUGIN);
  const runtime = new Runtime(new SimState({ pods: [{ id: 'p', name: 'p', namespace: 'n' }] }), {
    socketPath: path.join(dir, 's'),
    pluginPath: pdir,
    registrationTimeoutMs: 60_000,
    pluginOutput: output,
  });
  // What `nrictl sim` does with each event: format it and write it out.
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  let lines = 0;
  runtime.on('event', (e: SimEvent) => {
    if (e.type === 'plugin-output') lines++;
    sink.write(`${formatSimEvent(e)}\n`);
  });
  await runtime.start();
  if (runtime.plugins().length !== plugins)
    throw new Error(`only ${runtime.plugins().length} of ${plugins} plugins started`);
  const cycle = async (id: string): Promise<void> => {
    const r = await runtime.createContainer('p', { id, name: id });
    if (!r.ok) throw r.error;
    await runtime.removeContainer(id);
  };
  for (let i = 0; i < 50; i++) await cycle(`warm${i}`);
  lines = 0;
  const t0 = performance.now();
  for (let i = 0; i < CYCLES; i++) await cycle(`c${i}`);
  const seconds = (performance.now() - t0) / 1000;
  await runtime.stop();
  await rm(dir, { recursive: true, force: true });
  // Three lifecycle events per cycle (create, post-create, remove), each relayed to every plugin.
  return { perSec: (CYCLES * 3) / seconds, lines };
}

console.log(
  `${CYCLES} CreateContainer+PostCreateContainer+RemoveContainer cycles, child plugins logging a line per event`,
);
console.log('(the machine may be shared: compare rows of one run, taken back to back, not runs of different times)');
for (const n of [1, 3, 10]) {
  const shown = await run(n, 'events');
  const none = await run(n, 'none');
  console.log(
    `${String(n).padStart(2)} plugin(s): plugin output relayed and rendered ${shown.perSec.toFixed(0).padStart(6)} events/s (${shown.lines} lines)   not read (--plugin-output none) ${none.perSec.toFixed(0).padStart(6)} events/s`,
  );
}
