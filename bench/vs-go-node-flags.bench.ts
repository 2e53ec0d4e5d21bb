// What node flags do for nrictl sim's short runs, where V8's warm-up is most of the cost:
// the vs-go-events workload (pre-started Go template plugins; CreateContainer +
// PostCreateContainer + RemoveContainer; --plugin-output none, -o json) run by the built
// CLI under each set of flags below, in alternating rounds, with refrt for scale.
// Prints, medians: cycles/s and CPU per relayed call from the WARM-th cycle on (as
// vs-go-events), and the whole run from spawn to the last cycle (start-up and warm-up
// included), wall and CPU. Nothing in src/ changes; each variant is flags only, three of
// them a preload (--import) from vs-go/experiments: a warm-up of the relay path, the
// event output gathered into one write per event-loop turn, and no line per relayed call.
//
// Knobs: VS_GO_ROUNDS (3), VS_GO_PLUGINS (1; 10 takes minutes a round), VS_GO_CYCLES (300,3000),
// VS_GO_VARIANTS (only the variants whose label contains one of these, comma-separated;
// the baseline always runs).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simArgv } from './vs-go/nrictl.js';
import { goReferenceOrSkip } from './vs-go/reference.js';
import { refrtArgs } from './vs-go/refrt.js';
import { watchRun, type Stretch } from './vs-go/watched-run.js';
import { EVENTS_PER_CYCLE, writePluginDir, writeRefrtFiles, writeSimScenario } from './vs-go/workload.js';

const ref = goReferenceOrSkip('vs-go-node-flags');
const WARM = 20;
const list = (v: string | undefined, d: number[]): number[] => (v ? v.split(',').map(Number) : d);
const ROUNDS = Number(process.env.VS_GO_ROUNDS ?? 3);
const PLUGINS = list(process.env.VS_GO_PLUGINS, [1]);
const CYCLES = list(process.env.VS_GO_CYCLES, [300, 3000]);
const WARM_RELAY = fileURLToPath(new URL('./vs-go/experiments/warm-relay.mjs', import.meta.url));
const BATCHED_STDOUT = fileURLToPath(new URL('./vs-go/experiments/batched-stdout.mjs', import.meta.url));
const NO_INVOKE = fileURLToPath(new URL('./vs-go/experiments/no-invoke-events.mjs', import.meta.url));

// The warm-up preload needs the runtime chunk of builds before the CLI became one bundle.
const CHUNKED_BUILD = existsSync(fileURLToPath(new URL('../dist/chunks/', import.meta.url)));

/** Node flags for nrictl's process; [] is the baseline. */
const ALL_FLAG_SETS: Array<{ label: string; flags: string[]; unavailable?: string }> = [
  { label: '(none)', flags: [] },
  { label: '--max-semi-space-size=16', flags: ['--max-semi-space-size=16'] },
  { label: '--max-semi-space-size=64', flags: ['--max-semi-space-size=64'] },
  { label: '--no-opt', flags: ['--no-opt'] },
  { label: '--maglev', flags: ['--maglev'] },
  { label: '--always-sparkplug', flags: ['--always-sparkplug'] },
  { label: '--no-lazy-feedback-allocation', flags: ['--no-lazy-feedback-allocation'] },
  { label: '--interrupt-budget=16384', flags: ['--interrupt-budget=16384'] },
  { label: '--single-threaded', flags: ['--single-threaded'] },
  // TurboFan later (the default budget is 67584): fewer compiles in a short run.
  { label: '--interrupt-budget=270336', flags: ['--interrupt-budget=270336'] },
  { label: '--interrupt-budget=540672', flags: ['--interrupt-budget=540672'] },
  // Smaller TurboFan graphs: cheaper compiles, less inlining.
  { label: '--max-inlined-bytecode-size-cumulative=230', flags: ['--max-inlined-bytecode-size-cumulative=230'] },
  { label: '--no-opt --max-semi-space-size=64', flags: ['--no-opt', '--max-semi-space-size=64'] },
  { label: '--no-opt --always-sparkplug', flags: ['--no-opt', '--always-sparkplug'] },
  {
    label: 'relay warm-up (300 in-process cycles)',
    flags: ['--import', WARM_RELAY],
    ...(CHUNKED_BUILD ? {} : { unavailable: 'needs a build of d0fbcb1 or earlier (dist/chunks/)' }),
  },
  { label: 'event lines batched per loop turn', flags: ['--import', BATCHED_STDOUT] },
  { label: 'no invoke events (no line per relayed call)', flags: ['--import', NO_INVOKE] },
].filter(
  (s) =>
    s.flags.length === 0 ||
    !process.env.VS_GO_VARIANTS ||
    process.env.VS_GO_VARIANTS.split(',').some((v) => s.label.includes(v)),
);
const FLAG_SETS = ALL_FLAG_SETS.filter((s) => s.unavailable === undefined);

interface Files {
  pluginDir: string;
  sim: string;
  scenario: string;
  script: string;
}

function runSim(f: Files, plugins: number, cycles: number, flags: string[]): Promise<Stretch> {
  const argv = simArgv({
    scenario: f.sim,
    pluginDir: f.pluginDir,
    waitForPlugins: plugins,
    pluginOutput: 'none',
    keepRunning: true,
    output: 'json',
  });
  return watchRun({
    command: process.execPath,
    args: [...flags, ...argv],
    hint: 'RemoveContainer',
    isCycleEnd: (l) => l.includes('"type":"state-changed"') && l.includes('"event":"RemoveContainer"'),
    from: WARM,
    to: cycles,
  });
}

function runRefrt(f: Files, plugins: number, cycles: number): Promise<Stretch> {
  return watchRun({
    command: ref.refrt,
    args: refrtArgs({ scenario: f.scenario, script: f.script, pluginDir: f.pluginDir, waitPlugins: plugins }),
    hint: 'RemoveContainer',
    isCycleEnd: (l) => l.includes('"ev":"event"') && l.includes('"op":"RemoveContainer"'),
    from: WARM,
    to: cycles,
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function line(label: string, runs: Stretch[], plugins: number): string {
  const rate = median(runs.map((r) => r.cycles / (r.wallMs / 1000)));
  const perCall = median(runs.map((r) => r.cpuNs / 1000 / (r.cycles * EVENTS_PER_CYCLE * plugins)));
  const wall = median(runs.map((r) => r.wholeWallMs));
  const cpu = median(runs.map((r) => r.wholeCpuNs / 1e6));
  return `  ${label.padEnd(44)} ${rate.toFixed(0).padStart(6)} cycles/s  CPU/call ${perCall.toFixed(1).padStart(6)} µs   whole run: wall ${wall.toFixed(0).padStart(6)} ms, CPU ${cpu.toFixed(0).padStart(6)} ms`;
}

console.log(
  `node flags for nrictl sim (built CLI, -o json, --plugin-output none) against refrt; ${os.cpus().length} CPUs, node ${process.version}; medians of ${ROUNDS} rounds`,
);
for (const s of ALL_FLAG_SETS) if (s.unavailable) console.log(`  not run: ${s.label}: ${s.unavailable}`);
for (const plugins of PLUGINS) {
  for (const cycles of CYCLES) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vs-go-flags-'));
    try {
      const f: Files = {
        pluginDir: path.join(dir, 'plugins'),
        sim: path.join(dir, 'sim.json'),
        scenario: path.join(dir, 'scenario.json'),
        script: path.join(dir, 'script.json'),
      };
      await writePluginDir(f.pluginDir, ref.plugin('template'), plugins);
      await writeSimScenario(f.sim, cycles);
      await writeRefrtFiles(f.scenario, f.script, cycles);
      const runs = FLAG_SETS.map(() => [] as Stretch[]);
      const go: Stretch[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        go.push(await runRefrt(f, plugins, cycles));
        for (const [i, s] of FLAG_SETS.entries()) runs[i].push(await runSim(f, plugins, cycles, s.flags));
      }
      console.log(`${plugins} template plugin(s), ${cycles} cycles (timed ${WARM}-${cycles})`);
      console.log(line('refrt', go, plugins));
      for (const [i, s] of FLAG_SETS.entries()) console.log(line(`sim ${s.label}`, runs[i], plugins));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
