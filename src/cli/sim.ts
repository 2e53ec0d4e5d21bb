// What `nrictl sim` needs of the command line besides the base command: its flags, the
// simulation options they make, the interactive prompt that drives a running simulator,
// and how a finished simulation ends the command (its exit code and failure line).
import { Flags } from '@oclif/core';
import { formatsOf, inCI, writeFileAtomic, type Output, type RecordSink } from '../output/index.js';
import type { ReplayResult } from '../replay/index.js';
import {
  compareJunit,
  compareView,
  presetsView,
  replayJunitView,
  replayView,
  simulationJunitView,
  simulationView,
} from '../views/index.js';
import type {
  PresetsResult,
  Runtime,
  SimulationOptions,
  SimulationRecord,
  SimulationResult,
} from '../runtime/index.js';
import { UserError, usageError } from './errors.js';
import { bufferFlag, confDirFlag, durationFlagWithDefault, outputFlag, pluginDirFlag } from './flags.js';

/** sim's flags; `presets` are the names of the runtime presets (src/runtime's RUNTIME_PRESETS). */
export const simFlags = (presets: readonly string[]) => ({
  socket: Flags.string({
    description: 'Listen on this socket (default: a fresh 0700 directory with a 0600 socket).',
    helpValue: 'PATH',
  }),
  'cri-socket': Flags.string({
    description:
      'Also serve CRI on this socket (0600; its directory is made 0700 if missing and must not be writable by others), so that crictl or any CRI client drives the simulator: each call becomes the scenario step of the same name, plugins see its events, ContainerStatus shows their adjustments. It serves as long as the simulator runs: without SCENARIO (or with --keep-running) until stopped. Images: all present, unless the scenario lists them (images:).',
    helpValue: 'PATH',
  }),
  'signature-policy': Flags.boolean({
    description:
      'With --cri-socket and a CRI-O preset: the node verifies image signatures, as CRI-O with signature_policy set in crio.conf. CreateContainer without ImageSpec.user_specified_image is then refused as CRI-O refuses it: `user specified image not specified, cannot verify image signature`, gRPC Unknown, before any NRI event (the kubelet, crictl and critest set the field; nrictl conformance does too).',
    default: false,
  }),
  'plugin-dir': pluginDirFlag('Directory of pre-started plugins to launch (NN-name executables); it must exist.'),
  'conf-dir': confDirFlag(
    'Drop-in configuration directory for pre-started plugins (NN-name.conf, else name.conf); it must exist.',
  ),
  'registration-timeout': durationFlagWithDefault('Time a plugin gets to register, such as 5s or 500ms.', '5s'),
  'request-timeout': durationFlagWithDefault('Time a plugin gets to answer each request, such as 2s.', '2s'),
  scenario: Flags.string({
    description: 'The scenario (now the SCENARIO argument).',
    hidden: true,
    deprecated: { message: 'use nrictl sim SCENARIO' },
    helpValue: 'FILE',
    exclusive: ['pods'],
  }),
  pods: Flags.integer({ description: 'Generate this many pods instead of reading a scenario.', min: 0 }),
  'containers-per-pod': Flags.integer({ description: 'Containers per generated pod.', default: 2, min: 0 }),
  'nri-version': Flags.string({
    description:
      'Behave like the Go NRI runtime adaptation of this version: v0.3.0 and v0.4.0 (containerd 1.7.0-1.7.13), v0.6.1 (iSulad 2.1.5, later containerd 1.7), up to the newest (default). Before v0.7.0 a pre-started plugin that fails to start (refused events included) fails the whole start-up: sim ends with the runtime’s fatal error, exit 1.',
    helpValue: 'VERSION',
  }),
  preset: Flags.string({
    description:
      "A runtime release line: sets --runtime-name, --runtime-version and --nri-version (each can still be given) to what that release reports and vendors, and imitates where it departs from the Go adaptation: the events it knows (a plugin subscribing to others is refused with the runtime's `invalid plugin events: 0x...`; on containerd 1.7.0-1.7.25, NRI before v0.7, a pre-started one that fails to start keeps containerd from starting at all), the pod update events it sends (containerd 2.3: both; containerd 2.2: its CRI refuses pod updates; CRI-O 1.33+: UpdatePodSandbox only), CRI-O's container names (empty without the kubelet label io.kubernetes.container.name), Docker 29 (CreateContainer only, env and mounts only, a pod of the container's id and /name, UpdateContainers not implemented), iSulad 2.1.5 (an answer to CreateContainer without an adjust message, or any UpdateContainers, would crash it; new environment variables are ignored; a sparse CreateContainer; a refused plugin is skipped with iSulad's own log lines; a plugin that answers a call with an error is shut down and the operation goes on). all: run the scenario or --expect file once per release line, one result each; exit 1 when any fails.",
    options: [...presets, 'all'],
  }),
  validator: Flags.string({
    description:
      'Run the built-in default validator (00-default-validator, NRI v0.10+: containerd 2.2+, CRI-O 1.34+) with the settings of this runtime config: containerd\'s config.toml [plugins."io.containerd.nri.v1.nri".default_validator] or CRI-O\'s [crio.nri.default_validator] (enable, required_plugins, tolerate_missing_plugins_annotation, reject_*). It rejects a creation as the runtime does, in its words; pods may require plugins with the annotation required-plugins.noderesource.dev.',
    helpValue: 'FILE',
  }),
  'runtime-name': Flags.string({ description: 'Runtime name sent in Configure (default nrictl-sim).' }),
  'runtime-version': Flags.string({ description: 'Runtime version sent in Configure (default 0.1.0).' }),
  'wait-for-plugins': Flags.integer({
    description:
      'Before the script starts, wait until this many plugins have registered and synchronized (launched ones included), so a plugin started in another terminal sees every scripted event.',
    min: 1,
    helpValue: 'N',
  }),
  'keep-running': Flags.boolean({
    description: 'Keep serving plugins after the script is done (until Ctrl-C or SIGTERM).',
  }),
  interactive: Flags.boolean({
    description: 'Read commands from stdin (default when stdin is a terminal and CI is unset).',
    allowNo: true,
  }),
  expect: Flags.string({
    description:
      'Expectation file: a scenario (its scenario: key, or SCENARIO) and what must hold after named steps (container env, annotations, mounts, devices, rlimits, resources; step result; conflicts; no plugin failures). Exit 0 when all hold, 1 with a diff naming the plugin that set each differing value. A step it names that the scenario lacks: exit 2 before anything starts.',
    helpValue: 'FILE',
    exclusive: ['pods', 'keep-running'],
  }),
  calls: Flags.boolean({
    description:
      'Also show every call to a plugin (an invoke line: event, plugin, round trip). Off, a relayed call costs no line, as in a real runtime.',
  }),
  'plugin-output': Flags.option({
    description:
      "Pre-started plugins' stdout and stderr: lines (each line shown like the other events, in the -o format), json (each line one JSON object on stderr, keeping stdout for the simulator's events) or none (not read at all: the cheapest for plugins that log every event).",
    options: ['lines', 'json', 'none'] as const,
    default: 'lines',
  })(),
  buffer: bufferFlag('Events', DEFAULT_SIM_QUEUE_CAPACITY),
  replay: Flags.string({
    description:
      "Replay a recording (nrictl logs --record or trace --record; or the lines nrictl logs -o json printed) instead of a scenario: start from its Synchronize state and send its events in order, through the same lifecycle as a scenario's steps, to the plugins under test (--plugin-dir, --socket). The runtime it was recorded on picks the preset (its name, versions and quirks) unless --preset is given. The whole file is checked first: a line that is wrong ends the run before anything starts (exit 2). Not with --cri-socket: the recorded events alone drive the replay.",
    helpValue: 'FILE',
    exclusive: ['pods', 'scenario'],
  }),
  speed: Flags.custom<number>({
    description:
      'How fast --replay goes: recorded (the pace of the recording), Nx (N times that, e.g. 10x or 0.5x), or fast (the default: each event once the plugins answered the one before).',
    helpValue: 'recorded|Nx|fast',
    dependsOn: ['replay'],
    parse: async (input: string): Promise<number> => parseSpeed(input),
  })(),
  compare: Flags.boolean({
    description:
      "With --replay of a trace recording: trace the plugins under test as the recording traced the node's, and show per container each field that now ends differently, with the plugin that set it then and now (-o table, json or yaml). Exit 1 when anything differs.",
    dependsOn: ['replay'],
  }),
  junit: Flags.string({
    description:
      'With --compare: also write the comparison as JUnit XML to FILE, one failing case per container that differs.',
    helpValue: 'FILE',
    dependsOn: ['compare'],
  }),
});

/** --speed: recorded is 1, Nx is N, fast is undefined (no pacing: Infinity here). */
function parseSpeed(input: string): number {
  const text = input.trim().toLowerCase();
  if (text === 'fast') return Number.POSITIVE_INFINITY;
  if (text === 'recorded') return 1;
  const m = /^(\d+(?:\.\d+)?)x?$/.exec(text);
  const n = m ? Number(m[1]) : NaN;
  if (!(n > 0)) throw usageError(`--speed ${input}: give recorded, fast, or a factor such as 10x or 0.5x`);
  return n;
}

/**
 * Events held while the output is behind. The script waits when the queue is half full,
 * so only what no step paces (plugin output, plugins' own requests) can fill it.
 */
const DEFAULT_SIM_QUEUE_CAPACITY = 10_000;

/** The values of simFlags, as parsed. */
export interface SimFlagValues {
  socket?: string | undefined;
  'cri-socket'?: string | undefined;
  'signature-policy'?: boolean | undefined;
  'plugin-dir'?: string | undefined;
  'conf-dir'?: string | undefined;
  'registration-timeout': number;
  'request-timeout': number;
  scenario?: string | undefined;
  pods?: number | undefined;
  'containers-per-pod': number;
  'nri-version'?: string | undefined;
  preset?: string | undefined;
  validator?: string | undefined;
  'runtime-name'?: string | undefined;
  'runtime-version'?: string | undefined;
  'wait-for-plugins'?: number | undefined;
  'keep-running'?: boolean | undefined;
  expect?: string | undefined;
  'plugin-output': 'lines' | 'json' | 'none';
  calls?: boolean | undefined;
  buffer: number;
  replay?: string | undefined;
  speed?: number | undefined;
  compare?: boolean | undefined;
  junit?: string | undefined;
}

/** What --replay adds to the simulation's options (src/replay's ReplayOptions). */
export function replayOptions(
  f: SimFlagValues,
  scenarioArg: string | undefined,
): { replay: string; speed?: number; compare: boolean } {
  if (scenarioArg !== undefined) throw usageError(`give a SCENARIO or --replay ${f.replay ?? 'FILE'}, not both`);
  const speed = f.speed === undefined || f.speed === Number.POSITIVE_INFINITY ? undefined : f.speed;
  return { replay: f.replay!, ...(speed !== undefined ? { speed } : {}), compare: f.compare === true };
}

/**
 * How a replay ends the command: with --compare the comparison (and --junit FILE written),
 * exit 1 when anything differs; else as a simulation does, with what was replayed.
 */
export async function replayOutput(
  result: ReplayResult,
  format: string,
  junit: string | undefined,
): Promise<Output<unknown>> {
  const expected = simulationOutput(result.simulation, format).error;
  if (result.compare) {
    if (junit !== undefined) await writeFileAtomic(junit, compareJunit(result.compare));
    const { containers, uncompared, file } = result.compare;
    const n = containers.reduce((k, c) => k + c.differences.length, 0);
    // A recorded event the replay never reached was not checked: no clean verdict for it.
    const differs =
      n > 0
        ? new UserError(`${n} difference(s) from ${file}: the replay does not end as the recording did`, 'failed')
        : uncompared.then > 0
          ? new UserError(
              `${uncompared.then} traced event(s) of ${file} were not seen in the replay: not compared`,
              'failed',
            )
          : undefined;
    const error = expected ?? differs;
    return { value: result.compare, view: compareView, ...(error ? { error } : {}) };
  }
  const view = format === 'junit' ? replayJunitView : replayView;
  return { value: result, view, endsStream: true, ...(expected ? { error: expected } : {}) };
}

/** The simulation the flags and the SCENARIO argument ask for. */
export function simOptions(
  f: SimFlagValues,
  scenarioArg: string | undefined,
): Omit<SimulationOptions, 'onEvent' | 'drive'> {
  const scenario = scenarioArg ?? f.scenario;
  const defined = <T extends object>(o: T): T =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  return defined({
    scenario,
    generate: f.pods === undefined ? undefined : { pods: f.pods, containersPerPod: f['containers-per-pod'] },
    expect: f.expect,
    socketPath: f.socket,
    criSocketPath: f['cri-socket'],
    signaturePolicy: f['signature-policy'] || undefined,
    pluginDir: f['plugin-dir'],
    confDir: f['conf-dir'],
    registrationTimeoutMs: f['registration-timeout'],
    requestTimeoutMs: f['request-timeout'],
    preset: f.preset,
    nriVersion: f['nri-version'],
    validator: f.validator,
    runtimeName: f['runtime-name'],
    runtimeVersion: f['runtime-version'],
    waitForPlugins: f['wait-for-plugins'],
    keepRunning: f['keep-running'],
    pluginOutput: f['plugin-output'] === 'none' ? 'none' : 'events',
    callEvents: f.calls === true,
  });
}

/**
 * The prompt that drives a running simulator from stdin (`--interactive`, the default on
 * a terminal outside CI), or undefined. Loaded only when it runs: it needs readline and
 * the protobuf bindings (for `dump`). Its help is for people: not printed with -o json/yaml.
 */
export function simPrompt(
  interactive: boolean | undefined,
  format: string,
): ((runtime: Runtime, signal: AbortSignal) => Promise<void>) | undefined {
  if (!(interactive ?? (Boolean(process.stdin.isTTY) && !inCI()))) return undefined;
  return async (runtime, signal) => {
    const { runCommandLoop, INTERACTIVE_HELP } = await import('./sim-prompt/loop.js');
    const print = (text: string): void => void process.stdout.write(`${text}\n`);
    if (signal.aborted) return;
    if (format !== 'json' && format !== 'yaml') print(INTERACTIVE_HELP);
    await runCommandLoop(runtime, process.stdin, {
      print,
      printError: (line) => void process.stderr.write(`${line}\n`),
      signal,
    });
  };
}

/** How a finished simulation ends the command: its summary, then an error (exit 1) when expectations failed or went unjudged. */
export function simulationOutput(result: SimulationResult, format: string): Output<SimulationResult> {
  const view = format === 'junit' ? simulationJunitView : simulationView;
  const e = result.expectations;
  const failure =
    e === undefined
      ? undefined
      : result.stopped
        ? `stopped before every expectation of ${e.file} was judged`
        : e.failed > 0
          ? `${e.failed} expectation(s) of ${e.file} failed (see the diff above)`
          : undefined;
  return {
    value: result,
    view,
    endsStream: true,
    ...(failure !== undefined ? { error: new UserError(failure, 'failed') } : {}),
  };
}

/** sim's -o: the formats of its stream, and junit (the expectations' report, see checkJunit). */
export const simOutputFlag = () => outputFlag(formatsOf(simulationView), ['junit']);

/** -o junit is the expectations of one run: it needs --expect and one preset. */
export function checkJunit(format: string, f: Pick<SimFlagValues, 'expect' | 'preset'>): void {
  if (format !== 'junit') return;
  if (f.expect === undefined) throw usageError('-o junit reports expectations: give --expect FILE');
  if (f.preset === 'all') throw usageError('-o junit reports the expectations of one run: give one preset');
}

/** How runs per preset end the command: one result per preset, then an error (exit 1) when any failed. */
export function presetsOutput(result: PresetsResult): Output<PresetsResult> {
  const failed = result.presets.filter((p) => !p.ok).map((p) => p.preset);
  const failure = result.stopped
    ? 'stopped before every preset ran'
    : failed.length > 0
      ? `${failed.length} preset(s) failed: ${failed.join(', ')}`
      : undefined;
  return {
    value: result,
    view: presetsView,
    endsStream: true,
    ...(failure !== undefined ? { error: new UserError(failure, 'failed') } : {}),
  };
}

/** Where sim's records go: --buffer of them while the output is behind, written at once while it keeps up. */
export function simSink(f: Pick<SimFlagValues, 'buffer'>): { capacity: number; writeThrough: true } {
  return { capacity: f.buffer, writeThrough: true };
}

/**
 * The run's records: to the output (stdout), except plugin output lines under
 * --plugin-output json (to stderr); and the script waits for a slow reader of the output
 * (pace) rather than lose what it shows, as only a simulated runtime can.
 */
export function simStream(
  f: Pick<SimFlagValues, 'plugin-output'>,
  show: RecordSink<SimulationRecord> | undefined,
  toStderr: RecordSink<SimulationRecord>,
): Pick<SimulationOptions, 'onRecord' | 'pace'> {
  return {
    onRecord: (r) => (r.type === 'plugin-output' && f['plugin-output'] === 'json' ? toStderr.push(r) : show?.push(r)),
    ...(show ? { pace: () => show.room() } : {}),
  };
}
