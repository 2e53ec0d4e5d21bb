// nrictl sim against the Go NRI adaptation (refrt, from the nri-go-reference tool), side
// by side: the same pre-started Go `template` sample plugins (each logs every event), the
// same cycles of CreateContainer + PostCreateContainer + RemoveContainer, in alternating
// runs. Prints cycles/s and events/s (3 per cycle), and each runtime's CPU per relayed
// call, timed from the end of the WARM-th cycle to the end of the last.
//
// Per-call CPU: CPU time of the runtime's process (all threads, /proc schedstat) over the
// timed cycles, divided by the plugin calls relayed in them (3 per cycle per plugin). The
// plugins' own time is in their processes and not counted there; it is shown beside it
// ("plugin's": the CPU of all plugin processes per call), since on a machine this small
// the plugins' work and the runtime's share the same two cores.
//
// nrictl runs as a user runs it (node bin/run.js sim, -o json so that both print one JSON
// line per event), once with its default --plugin-output lines (each plugin log line read
// and shown as an event) and once with --plugin-output none (not read: what the Go
// adaptation does, which starts plugins with stdout and stderr on /dev/null).
//
// Knobs: VS_GO_ROUNDS (3), VS_GO_PLUGINS (1,3,10), VS_GO_CYCLES (300,3000),
// VS_GO_NODE_FLAGS (node flags for nrictl's process, for V8 experiments),
// VS_GO_BASELINE_NRICTL (another build's bin/run.js, e.g. main's: run with plugin output
// none in the same turns, a before/after pair on the same load).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { goReferenceOrSkip } from './vs-go/reference.js';
import { nodeFlags, simArgv } from './vs-go/nrictl.js';
import { refrtArgs } from './vs-go/refrt.js';
import { watchRun, type Stretch } from './vs-go/watched-run.js';
import { EVENTS_PER_CYCLE, writePluginDir, writeRefrtFiles, writeSimScenario } from './vs-go/workload.js';

const ref = goReferenceOrSkip('vs-go-events');
const WARM = 20;
const list = (v: string | undefined, d: number[]): number[] => (v ? v.split(',').map(Number) : d);
const ROUNDS = Number(process.env.VS_GO_ROUNDS ?? 3);
const PLUGINS = list(process.env.VS_GO_PLUGINS, [1, 3, 10]);
const CYCLES = list(process.env.VS_GO_CYCLES, [300, 3000]);

interface Variant {
  label: string;
  run(files: Files, plugins: number, cycles: number): Promise<Stretch>;
}
interface Files {
  pluginDir: string;
  simScenario: string;
  refrtScenario: string;
  refrtScript: string;
}

/** A JSON line whose `field` is `kind` and whose event is RemoveContainer: the end of a cycle. */
const removeEvent =
  (field: 'ev' | 'type', kind: string) =>
  (line: string): boolean => {
    try {
      const o = JSON.parse(line) as Record<string, unknown>;
      return o[field] === kind && (o.op ?? o.event) === 'RemoveContainer';
    } catch {
      return false;
    }
  };

const refrt: Variant = {
  label: 'Go adaptation (refrt)',
  run: (f, plugins, cycles) =>
    watchRun({
      command: ref.refrt,
      args: refrtArgs({
        scenario: f.refrtScenario,
        script: f.refrtScript,
        pluginDir: f.pluginDir,
        waitPlugins: plugins,
      }),
      hint: 'RemoveContainer',
      isCycleEnd: removeEvent('ev', 'event'),
      from: WARM,
      to: cycles,
    }),
};

const sim = (pluginOutput: 'lines' | 'none', bin?: string): Variant => ({
  label: `${bin ? 'baseline' : 'nrictl'} sim, plugin output ${pluginOutput}`,
  run: (f, plugins, cycles) =>
    watchRun({
      command: process.execPath,
      args: simArgv({
        ...(bin ? { bin } : {}),
        scenario: f.simScenario,
        pluginDir: f.pluginDir,
        waitForPlugins: plugins,
        pluginOutput,
        keepRunning: true,
        output: 'json',
      }),
      hint: 'RemoveContainer',
      isCycleEnd: removeEvent('type', 'state-changed'),
      from: WARM,
      to: cycles,
    }),
});

const BASELINE = process.env.VS_GO_BASELINE_NRICTL;
const VARIANTS: Variant[] = [refrt, sim('lines'), sim('none'), ...(BASELINE ? [sim('none', BASELINE)] : [])];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface Figures {
  cyclesPerS: number;
  cpuPerCallUs: number;
  pluginCpuPerCallUs: number;
  range: string;
}

function figures(runs: Stretch[], plugins: number): Figures {
  const rates = runs.map((r) => r.cycles / (r.wallMs / 1000));
  const calls = (r: Stretch): number => r.cycles * EVENTS_PER_CYCLE * plugins;
  const cpu = runs.map((r) => r.cpuNs / 1000 / calls(r));
  const pluginCpu = runs.map((r) => r.pluginsCpuNs / 1000 / calls(r));
  return {
    cyclesPerS: median(rates),
    cpuPerCallUs: median(cpu),
    pluginCpuPerCallUs: median(pluginCpu),
    range: `${Math.min(...rates).toFixed(0)}-${Math.max(...rates).toFixed(0)}`,
  };
}

async function row(plugins: number, cycles: number): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vs-go-'));
  try {
    const f: Files = {
      pluginDir: path.join(dir, 'plugins'),
      simScenario: path.join(dir, 'sim.json'),
      refrtScenario: path.join(dir, 'refrt-scenario.json'),
      refrtScript: path.join(dir, 'refrt-script.json'),
    };
    await writePluginDir(f.pluginDir, ref.plugin('template'), plugins);
    await writeSimScenario(f.simScenario, cycles);
    await writeRefrtFiles(f.refrtScenario, f.refrtScript, cycles);
    const runs = VARIANTS.map(() => [] as Stretch[]);
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with another variant, so that none always follows the same one.
      for (let k = 0; k < VARIANTS.length; k++) {
        const i = (round + k) % VARIANTS.length;
        runs[i].push(await VARIANTS[i].run(f, plugins, cycles));
      }
    }
    const [go, ...sims] = runs.map((r) => figures(r, plugins));
    const line = (label: string, x: Figures, vsGo?: Figures): string => {
      let s = `  ${label.padEnd(34)} ${x.cyclesPerS.toFixed(0).padStart(6)} cycles/s ${(x.cyclesPerS * EVENTS_PER_CYCLE).toFixed(0).padStart(6)} events/s (runs ${x.range.padEnd(11)})  CPU/relayed call ${x.cpuPerCallUs.toFixed(1).padStart(6)} µs (plugin's ${x.pluginCpuPerCallUs.toFixed(1).padStart(5)})`;
      if (vsGo)
        s += `   sim/Go: ${(x.cyclesPerS / vsGo.cyclesPerS).toFixed(2)} speed, ${(x.cpuPerCallUs / vsGo.cpuPerCallUs).toFixed(2)} CPU per call`;
      return s;
    };
    console.log(
      `${plugins} template plugin(s), ${cycles} cycles (timed ${WARM}-${cycles}), medians of ${ROUNDS} alternating runs`,
    );
    console.log(line(VARIANTS[0].label, go));
    sims.forEach((x, i) => console.log(line(VARIANTS[i + 1].label, x, go)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const flags = nodeFlags();
console.log(
  `nrictl sim vs the Go NRI adaptation (refrt in ${ref.dir}); ${os.cpus().length} CPUs, node ${process.version}${flags.length ? `, nrictl's node flags: ${flags.join(' ')}` : ''}`,
);
console.log(
  'a cycle: CreateContainer + PostCreateContainer + RemoveContainer; CPU: the runtime process, all threads, per call relayed to a plugin',
);
for (const plugins of PLUGINS) for (const cycles of CYCLES) await row(plugins, cycles);
