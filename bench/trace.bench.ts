// What `nrictl trace` costs the node it watches. The simulator runs in this process and
// measures; three do-nothing SDK plugins (20, 40, 60) run in one child process and the
// built CLI in another, as on a node. Prints figures, asserts nothing.
//   1. CreateContainer round trip (the simulator's whole createContainer(), create and
//      post-create relayed) with the three plugins, without and with trace (probes at
//      19, 21, 41, 61 and the calibration probe 62).
//   2. Each probe's answer to CreateContainer as the simulator timed it (per probe, p50/p99).
//   3. trace's own probe hop estimate (its summary record).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, openSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SimEvent } from '../src/runtime/events.js';
import { Runtime } from '../src/runtime/sim/runtime.js';
import { SimState } from '../src/runtime/sim/state.js';
import { createRoundTrips } from './round-trips.js';

const BIN = path.resolve(process.env.NRICTL_BIN ?? 'bin/run.js');
const ENV = { ...process.env, NO_COLOR: '1', NODE_ENV: 'production' };
const N = Number(process.env.TRACE_BENCH_N ?? 1500);

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number): string => `${x.toFixed(3)} ms`;

function waitForSynchronized(
  runtime: Runtime,
  match: (plugin: string) => boolean,
  count: number,
  child: ChildProcess,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let seen = 0;
    const onEvent = (e: SimEvent) => {
      if (e.type === 'synchronized' && match(e.plugin) && ++seen === count) {
        runtime.off('event', onEvent);
        resolve();
      }
    };
    runtime.on('event', onEvent);
    child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'nrtb-'));
const emptyPluginDir = mkdtempSync(path.join(os.tmpdir(), 'nrtb-plugins-'));
const runtime = new Runtime(
  new SimState({ pods: [{ id: 'bench-pod', name: 'bench-0', namespace: 'bench', uid: 'u' }] }),
  { socketPath: path.join(dir, 'nri.sock') },
);
const invokes: Array<Extract<SimEvent, { type: 'invoke' }>> = [];
runtime.on('event', (e: SimEvent) => {
  if (e.type === 'invoke' && e.event === 'CreateContainer') invokes.push(e);
});
const { socketPath } = await runtime.start();
try {
  const plugins = spawn(process.execPath, ['--import', 'tsx', path.resolve('bench/three-plugins.ts'), socketPath!], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: ENV,
  });
  await waitForSynchronized(runtime, (p) => /^(20|40|60)-/.test(p), 3, plugins);
  await createRoundTrips(runtime, 'bench-pod', 300); // warm the JIT
  const base = await createRoundTrips(runtime, 'bench-pod', N);

  const outFile = path.join(dir, 'trace.jsonl');
  const fd = openSync(outFile, 'w');
  const trace = spawn(
    process.execPath,
    [
      BIN,
      'trace',
      '--socket',
      socketPath!,
      '--plugin-dir',
      emptyPluginDir,
      '--index',
      '20,40,60',
      '--events',
      'create',
      '-o',
      'json',
    ],
    {
      stdio: ['ignore', fd, 'pipe'],
      env: ENV,
    },
  );
  closeSync(fd);
  trace.stderr!.resume();
  await waitForSynchronized(runtime, (p) => p.endsWith('-nrictl-trace'), 5, trace);
  await createRoundTrips(runtime, 'bench-pod', 300); // warm the probes
  invokes.length = 0;
  const traced = await createRoundTrips(runtime, 'bench-pod', N);
  const probeTimes = new Map<string, number[]>();
  for (const e of invokes) {
    if (!e.plugin.endsWith('-nrictl-trace')) continue;
    const xs = probeTimes.get(e.plugin) ?? [];
    xs.push(e.rttMs);
    probeTimes.set(e.plugin, xs);
  }
  await stop(trace);
  await stop(plugins);
  const lines = readFileSync(outFile, 'utf8').trim().split('\n');
  const summary = JSON.parse(lines.at(-1)!) as {
    type: string;
    hopMs: Record<string, { p50Ms: number; p99Ms: number; count: number }>;
    events: { traced: number; dropped: number };
  };

  console.log(
    `CreateContainer round trip through the simulator with 3 plugins installed, ${N} containers (create + post-create relayed):`,
  );
  console.log(`  without trace:             p50 ${ms(pct(base, 50))}  p99 ${ms(pct(base, 99))}`);
  console.log(
    `  with trace (5 probes):     p50 ${ms(pct(traced, 50))}  p99 ${ms(pct(traced, 99))}   added p50 ${ms(pct(traced, 50) - pct(base, 50))}  p99 ${ms(pct(traced, 99) - pct(base, 99))}`,
  );
  console.log(`    per probe (added / 5):   p50 ${ms((pct(traced, 50) - pct(base, 50)) / 5)}`);
  console.log("  each probe's CreateContainer answer as the simulator timed it:");
  for (const [probe, xs] of [...probeTimes].sort())
    console.log(
      `    ${probe.padEnd(18)} p50 ${ms(pct(xs, 50))}  p99 ${ms(pct(xs, 99))}  max ${ms(Math.max(...xs))}  (${xs.length} events)`,
    );
  const hop = summary.hopMs.CreateContainer;
  if (hop)
    console.log(
      `  trace's own probe hop estimate (calibration pair 61 -> 62): p50 ${ms(hop.p50Ms)}  p99 ${ms(hop.p99Ms)} over ${hop.count} events`,
    );
  console.log(`  trace traced ${summary.events.traced} events, dropped ${summary.events.dropped} from its output`);
  console.log(
    `  (machine: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}: shared, figures are noisy)`,
  );
} finally {
  await runtime.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(emptyPluginDir, { recursive: true, force: true });
}
