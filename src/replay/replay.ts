// `nrictl sim --replay FILE` as one library call: read the whole recording once to check
// it (nothing starts when a line is wrong), pick the runtime it was made on, start the
// simulator from its Synchronize state, and replay its events through the simulator's
// script, reading the file again as the script goes (one line at a time: memory does not
// grow with the recording). With --compare, trace's probes watch the plugins under test
// and each traced event is held to the recording's.
import { eventBit, eventMask, type nri } from '../api/index.js';
import {
  checkRecording,
  eventByName,
  openRecording,
  RecordingError,
  type HeaderLine,
  type RecordingEntry,
  type UnknownFields,
} from '../recording/index.js';
import {
  presetForRuntime,
  runSimulation,
  runtimeVintage,
  VintageError,
  stepLabel,
  type SimulationOptions,
  type SimulationRecord,
  type SimulationResult,
} from '../runtime/index.js';
import type { TraceSession } from '../trace/index.js';
import { Comparer, type CompareResult } from './compare.js';
import { startReplayTrace } from './probes.js';
import { recordedSteps, StepMapper, stepsOf, type StepCounts } from './steps.js';

export interface ReplayOptions extends Omit<SimulationOptions, 'scenario' | 'generate' | 'source' | 'beforeScript'> {
  /** The recording (docs/recording.md), or what `logs -o json` printed. */
  replay: string;
  /** Times the recorded pace (1: as recorded); undefined: as fast as the plugins answer. */
  speed?: number | undefined;
  /** Hold what the plugins under test do to what the recording's did (a trace recording). */
  compare?: boolean | undefined;
  /**
   * Told, once each and before anything runs, what the replay assumed where the recording
   * says what this nrictl cannot use (an NRI version it cannot read, a runtime it has no
   * preset for): one line for people, the run goes on.
   */
  onAssumption?: ((line: string) => void) | undefined;
}

/** What was replayed, and as which runtime. */
export interface ReplaySummary extends StepCounts {
  file: string;
  format: 'recording' | 'logs-json';
  /** The runtime the recording was made on, as it named itself. */
  recordedOn?: HeaderLine['runtime'];
  /** The preset the replay imitates (undefined: the Go adaptation's rules of `nriVersion`, without quirks). */
  preset: string | undefined;
  /** How it was chosen: --preset, or from the recording's runtime. */
  presetFrom: 'flag' | 'recording' | 'default';
  /** What the replay assumed where the recording said what this nrictl cannot use (onAssumption's lines). */
  assumed: string[];
  pods: number;
  containers: number;
  /** Times the runtime went away while recording (events then were missed). */
  gaps: number;
  /** From the trailer: records the recording lost (dropped, past --record-max). */
  lost: number;
}

export interface ReplayResult {
  simulation: SimulationResult;
  replay: ReplaySummary;
  compare?: CompareResult;
}

export async function replayRecording(opts: ReplayOptions, signal: AbortSignal): Promise<ReplayResult> {
  const file = opts.replay;
  // Refused before the file is read: a CRI client's calls would mix with the recorded
  // events, and --compare would hold them to a recording that never had them.
  if (opts.criSocketPath !== undefined)
    throw new RecordingError(
      `${file} is replayed: its recorded events alone drive the simulator; leave out --cri-socket (sim SCENARIO --cri-socket serves CRI)`,
      'usage',
      'criSocketPath',
    );
  // Every line checked before anything starts; the labels only where an expectation file needs them.
  const labels: string[] = [];
  const labelling = opts.expect !== undefined ? new StepMapper() : undefined;
  const check = await checkRecording(file, (e) => {
    if (!labelling) return;
    if (e.kind === 'event') for (const s of stepsOf(labelling.map(e))) labels.push(stepLabel(s));
    else learnState(labelling, e);
  });
  const header = check.info.format === 'recording' ? check.info.header : undefined;
  if (opts.compare && header?.source !== 'trace')
    throw new RecordingError(
      `${file} was made by ${header ? 'nrictl logs' : 'nrictl logs -o json'}: --compare needs a recording of nrictl trace --record, which holds what each plugin changed`,
      'usage',
      'replay',
    );
  if (opts.speed !== undefined && !check.timed)
    throw new RecordingError(`${file} has no times: replay it without --speed`, 'usage', 'replay');
  const runtime = runtimeOf(opts, header);
  const unknown = header ? unknownFields(header) : [];
  if (unknown.length)
    runtime.assumed.push(
      `the recording's header has fields this nrictl does not know (${unknown.join(', ')}): replaying without them`,
    );
  const unknownInBodies = unknownFieldsNote(check.unknown);
  if (unknownInBodies) runtime.assumed.push(unknownInBodies);
  for (const line of runtime.assumed) opts.onAssumption?.(line);

  const { entries } = await openRecording(file);
  const iterator = entries[Symbol.asyncIterator]();
  const mapper = new StepMapper();
  const replayed: StepCounts = { events: 0, steps: 0, madeUp: 0, notSteps: 0 };
  const { pods, containers, first } = await readState(iterator, mapper);
  const comparer = opts.compare ? new Comparer(file, header?.redacted.includes('env') === true) : undefined;
  const traced = eventMask((header?.traced ?? []).flatMap((n) => eventByName(n) ?? []));
  let gaps = 0;
  const onEntry = (e: RecordingEntry): void => {
    if (e.kind === 'gap') gaps++;
    if (!comparer) return;
    if (e.kind === 'trace') comparer.recorded(e.trace);
    else if (e.kind === 'event' && (traced & eventBit(e.event)) !== 0)
      comparer.event(e.seq, e.request.pod ?? {}, e.request.container?.name ?? '');
  };
  const rest: AsyncIterable<RecordingEntry> = {
    [Symbol.asyncIterator]: () => withFirst(first, iterator),
  };
  let session: TraceSession | undefined;
  const simulation = await runSimulation(
    {
      ...opts,
      ...runtime.options,
      source: {
        file,
        pods,
        containers,
        steps: recordedSteps(rest, mapper, { speed: opts.speed, signal }, replayed, onEntry),
        labels,
      },
      ...(comparer
        ? {
            // What the runtime did after the last plugin answered is the simulator's to tell.
            onRecord: (r) => {
              const failed = creationFailure(r);
              if (failed) comparer.runtimeFailed(failed.container, failed.message);
              opts.onRecord?.(r);
            },
            beforeScript: async (rt, s) => {
              session = await startReplayTrace(rt, traced, (r) => comparer.replayed(r), s);
            },
            afterScript: async () => {
              await session?.stop(0);
            },
          }
        : {}),
    },
    signal,
  );
  return {
    simulation,
    replay: {
      file,
      format: check.info.format,
      ...(header ? { recordedOn: header.runtime } : {}),
      preset: runtime.preset,
      presetFrom: runtime.from,
      assumed: runtime.assumed,
      pods: pods.length,
      containers: containers.length,
      gaps,
      lost: (check.end?.records.dropped ?? 0) + (check.end?.records.truncated ?? 0),
      ...replayed,
    },
    ...(comparer ? { compare: comparer.result() } : {}),
  };
}

/**
 * The runtime to imitate: --preset, else the recording's own, in its name, versions and
 * (where one fits) quirks. What the recording says that cannot be used is assumed away,
 * said in `assumed`, never refused: a real runtime writes what it writes (containerd built
 * from its vendor tree says NRI version "0.0.0-unknown").
 */
function runtimeOf(
  opts: ReplayOptions,
  header: HeaderLine | undefined,
): {
  options: Partial<SimulationOptions>;
  preset: string | undefined;
  from: ReplaySummary['presetFrom'];
  assumed: string[];
} {
  if (opts.preset !== undefined) return { options: {}, preset: opts.preset, from: 'flag', assumed: [] };
  const rt = header?.runtime;
  if (!rt || rt.name === '') return { options: {}, preset: undefined, from: 'default', assumed: [] };
  const preset = presetForRuntime(rt.name, rt.version);
  const assumed: string[] = [];
  // What the runtime said of its NRI is what it was; else its release line's (or the newest).
  let nriVersion = opts.nriVersion === undefined && rt.nriVersion ? rt.nriVersion : undefined;
  if (nriVersion !== undefined && !readable(nriVersion)) {
    assumed.push(
      `the recording's NRI version "${nriVersion}" (${rt.name} ${rt.version}) cannot be read: replaying with ${preset !== undefined ? `the ${preset} preset's NRI version` : 'the newest NRI version'}; give --nri-version to choose`,
    );
    nriVersion = undefined;
  }
  if (preset === undefined)
    assumed.push(
      `no preset for ${rt.name} ${rt.version}: replaying with its name and version, the Go adaptation's rules of NRI ${nriVersion ?? opts.nriVersion ?? 'at its newest'} and no runtime's quirks; give --preset to choose`,
    );
  return {
    options: {
      ...(preset !== undefined ? { preset } : {}),
      runtimeName: opts.runtimeName ?? rt.name,
      runtimeVersion: opts.runtimeVersion ?? rt.version,
      ...(nriVersion !== undefined ? { nriVersion } : {}),
    },
    preset,
    from: 'recording',
    assumed,
  };
}

const HEADER_FIELDS: ReadonlySet<string> = new Set([
  'format',
  'version',
  'nrictlVersion',
  'source',
  'started',
  'runtime',
  'plugin',
  'events',
  'traced',
  'segments',
  'filter',
  'redacted',
]);
const RUNTIME_FIELDS: ReadonlySet<string> = new Set(['name', 'version', 'nriVersion']);

/** The header's fields (and its runtime's) that this nrictl does not know: a newer nrictl's, or a hand's. */
function unknownFields(header: HeaderLine): string[] {
  return [
    ...Object.keys(header).filter((k) => !HEADER_FIELDS.has(k)),
    ...Object.keys(header.runtime)
      .filter((k) => !RUNTIME_FIELDS.has(k))
      .map((k) => `runtime.${k}`),
  ];
}

/** How many paths an assumption names before it says how many more there are. */
const PATHS_SHOWN = 8;

// Replay may not import units (docs/architecture.md): its one plural, here.
const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * What the recorded pods, containers and requests carried that this nrictl does not know
 * (a newer NRI's fields, a runtime's own), counted by the reader: replayed without them.
 */
function unknownFieldsNote(unknown: UnknownFields): string | undefined {
  if (unknown.lines === 0) return undefined;
  const paths = [...unknown.paths].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown = paths.slice(0, PATHS_SHOWN).map(([path, lines]) => `${path} in ${plural(lines, 'line')}`);
  const more = paths.length > PATHS_SHOWN ? ` and ${plural(paths.length - PATHS_SHOWN, 'more field')}` : '';
  const carry = unknown.lines === 1 ? 'carries' : 'carry';
  return `${plural(unknown.lines, 'recorded line')} ${carry} fields this nrictl does not know (${shown.join(', ')}${more}): replaying without them`;
}

function readable(nriVersion: string): boolean {
  try {
    runtimeVintage(nriVersion);
    return true;
  } catch (err) {
    if (err instanceof VintageError) return false;
    throw err;
  }
}

function learnState(mapper: StepMapper, e: RecordingEntry): void {
  if (e.kind === 'pod') mapper.knowPod(e.pod.id);
  else if (e.kind === 'container') mapper.knowContainer(e.container.id, e.container.podSandboxId);
}

/** The Synchronize state at the head of the entries; the first entry after it is handed back. */
async function readState(
  it: AsyncIterator<RecordingEntry>,
  mapper: StepMapper,
): Promise<{ pods: nri.IPodSandbox[]; containers: nri.IContainer[]; first: RecordingEntry | undefined }> {
  const pods: nri.IPodSandbox[] = [];
  const containers: nri.IContainer[] = [];
  for (;;) {
    const next = await it.next();
    if (next.done) return { pods, containers, first: undefined };
    const e = next.value;
    if (e.kind === 'pod') pods.push(e.pod);
    else if (e.kind === 'container') containers.push(e.container);
    else if (e.kind !== 'synced') return { pods, containers, first: e };
    learnState(mapper, e);
  }
}

async function* withFirst(
  first: RecordingEntry | undefined,
  it: AsyncIterator<RecordingEntry>,
): AsyncGenerator<RecordingEntry> {
  try {
    if (first) yield first;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await it.return?.();
  }
}

/** A creation the simulated runtime failed, from its record: a conflict, a validator's refusal, an error of the creation. */
function creationFailure(r: SimulationRecord): { container: string; message: string } | undefined {
  if (r.type === 'conflict' || r.type === 'rejected') return { container: r.container, message: r.message };
  if (r.type === 'error' && r.container && (r.event === 'CreateContainer' || r.event === 'ValidateContainerAdjustment'))
    return { container: r.container, message: r.message };
  return undefined;
}
