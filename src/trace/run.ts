// One trace from start to end: reach the runtime (or start the simulator), place the
// probes, register them, optionally serve the metrics, wait for the end (a duration, a
// signal, the simulated script, the runtime or the output's reader going away),
// deregister and summarise. Reaching the runtime is src/session's.
import {
  recordingFailed,
  RecordingWriter,
  type HeaderLine,
  type RecordingError,
  type RecordingNote,
  type RecordingOptions,
} from '../recording/index.js';
import { outputClosed, serveMetrics, type MetricsServer } from '../output/index.js';
import {
  isEndpoint,
  openEndpoint,
  metricsUrl,
  SessionError,
  sessionNotes,
  type Endpoint,
  type RuntimeInfo,
  type SessionNote,
  type SessionTarget,
} from '../session/index.js';
import { readNodeFacts, mergeInstalled, pluginsFromRuntimeMetrics } from './installed.js';
import { TraceMetrics } from './metrics.js';
import {
  parseIndexList,
  planProbes,
  pluginLabel,
  type InstalledPlugin,
  type ProbeMode,
  type ProbePlan,
} from './placement.js';
import { TraceSession, type RecordFilter, type TraceSessionOptions } from './session.js';
import type { TraceSummary } from './stats.js';

/** The embedded simulator, started by the caller (its plugins are known exactly). */
export interface SimulatedRuntime {
  socketPath: string;
  runScript(): Promise<unknown>;
  runtime?: { plugins(): Array<{ index: string; base: string; name: string }> } | undefined;
}

/** The session's options (less what run places and builds itself) and the run's own. */
export interface TraceRunOptions extends Pick<
  TraceSessionOptions,
  'events' | 'validator' | 'accept' | 'sink' | 'requestTimeoutMs' | 'configTimeout' | 'timeoutMs' | 'name'
> {
  /**
   * The runtime's socket, or --sim (the simulator is started here, with the plugins of
   * --plugin-dir, and stopped at the end); or an endpoint the caller opened and closes.
   */
  target: SessionTarget | Endpoint;
  /** The plugin directory to read; else the runtime config's, as doctor finds it. */
  pluginDir?: string | undefined;
  /** Which containers to trace (--namespace, --pod, --container, --label); else all. */
  filter?:
    | ({
        matchesContainer: NonNullable<TraceSessionOptions['accept']>;
        given?: HeaderLine['filter'];
      } & Partial<RecordFilter>)
    | undefined;
  /**
   * --record FILE: the first probe also records every event and the Synchronize state,
   * and what the probes find is recorded with them. The filter, when given, must then
   * also select pods and the state, and say its criteria for the header (src/observe's
   * ObjectFilter does).
   */
  record?: (RecordingOptions & { nrictlVersion: string }) | undefined;
  /** --index: where external plugins sit. */
  indexes?: string | undefined;
  probes?: ProbeMode;
  /** Stop after this long; undefined: until `until` settles. */
  durationMs?: number | undefined;
  /**
   * Ends the trace: Ctrl-C, SIGTERM, or the output's reader gone (reason
   * 'output-closed': then nothing more is written).
   */
  signal?: AbortSignal | undefined;
  metricsAddr?: string | undefined;
  /**
   * --metrics-url: the runtime's own NRI metrics (containerd 2.3+), which name external
   * plugins; instead of the address the node's config names, and with --plugin-dir too.
   */
  metricsUrl?: string | undefined;
  /** What people are told while it runs: connecting, then once the probes are live, where they are. */
  notes?: ((note: TraceNote) => void) | undefined;
}

export type TraceNote =
  | SessionNote
  | RecordingNote
  /** The probes are live; no event was traced yet. */
  | {
      kind: 'live';
      plan: ProbePlan;
      notes: string[];
      runtime: RuntimeInfo | undefined;
      pluginSource: string;
      metricsUrl?: string;
      /** How the trace will end: after this long, with the simulator's script (`scripted`), or when stopped. */
      durationMs: number | undefined;
      scripted: boolean;
    };

export type TraceEndReason = 'duration' | 'signal' | 'script-done' | 'output-closed' | 'gone';

export interface TraceResult {
  summary: TraceSummary;
  reason: TraceEndReason;
  /**
   * Set when reason is 'gone' (runtime-gone, or malformed-frame when nrictl hung up on
   * garbage), or the recording could not be written: the trace's summary stands, and the
   * trace ends with this error.
   */
  error?: SessionError | RecordingError | undefined;
}

/** Which plugins are installed where, from the simulator, the plugin directory and --index. */
function installedPlugins(
  opts: Pick<TraceRunOptions, 'pluginDir' | 'indexes' | 'configTimeout'> & { sim?: SimulatedRuntime | undefined },
): {
  plugins: InstalledPlugin[];
  source: string;
  configTimeout?: { ms: number; from: string };
  notes: string[];
  /** containerd's metrics address, when the node's config names one (not with --plugin-dir or --sim). */
  metricsAddress?: string | undefined;
} {
  const flagged = opts.indexes ? parseIndexList(opts.indexes) : [];
  if (opts.sim?.runtime) {
    const fromSim = opts.sim.runtime
      .plugins()
      .map((p): InstalledPlugin => ({ index: p.index, name: p.base, source: 'simulator' }));
    // A plugin that failed to start is not in the simulator's list: say so rather than trace around a gap.
    const live = new Set(fromSim.map((p) => `${p.index}-${p.name}`));
    const notes = (opts.pluginDir ? readNodeFacts({ pluginDir: opts.pluginDir }).plugins : [])
      .filter((p) => !live.has(`${p.index}-${p.name}`))
      .map(
        (p) =>
          `${p.index}-${p.name} is in ${opts.pluginDir} but did not register with the simulator (see nrictl sim --plugin-path ${opts.pluginDir})`,
      );
    return { plugins: mergeInstalled(fromSim, flagged), source: "the simulator's plugin list", notes };
  }
  const facts = readNodeFacts({ pluginDir: opts.pluginDir });
  return {
    plugins: mergeInstalled(facts.plugins, flagged),
    source: `${facts.pluginPath}${flagged.length ? ' and --index' : ''}`,
    notes: [],
    metricsAddress: opts.pluginDir === undefined ? facts.metricsAddress : undefined,
    ...((opts.configTimeout ?? facts.configTimeout)
      ? { configTimeout: (opts.configTimeout ?? facts.configTimeout)! }
      : {}),
  };
}

export async function runTrace(opts: TraceRunOptions): Promise<TraceResult> {
  // A malformed URL is the caller's mistake (RuntimeMetricsError, bad-url), told before
  // connecting; a runtime that does not answer there only leaves the names out.
  if (opts.metricsUrl !== undefined) metricsUrl(opts.metricsUrl);
  // So is a recording file already there: said before connecting, and removed if the trace never starts.
  const recorder = opts.record ? await RecordingWriter.open(opts.record, opts.notes) : undefined;
  try {
    if (isEndpoint(opts.target)) return await traceOn(opts.target, opts, recorder);
    const endpoint = await openEndpoint(opts.target, sessionNotes(opts.target, opts.notes).onWarning);
    try {
      return await traceOn(endpoint, opts, recorder);
    } finally {
      await endpoint.close();
    }
  } finally {
    await recorder?.end();
  }
}

/** Ends the recording (once the probes are gone) into the summary; a file that could not be written ends the trace in error. */
async function endRecording(recorder: RecordingWriter | undefined, result: TraceResult): Promise<TraceResult> {
  if (!recorder) return result;
  const recording = await recorder.end();
  const out: TraceResult = { ...result, summary: { ...result.summary, recording } };
  if (recording.error !== undefined && out.error === undefined)
    out.error = recordingFailed(recording.file, recording.error);
  return out;
}

async function traceOn(
  endpoint: Endpoint,
  opts: TraceRunOptions,
  recorder: RecordingWriter | undefined,
): Promise<TraceResult> {
  const installed = installedPlugins({ ...opts, sim: endpoint.sim });
  const metricsAt = opts.metricsUrl ?? installed.metricsAddress;
  if (metricsAt !== undefined) {
    const named = await pluginsFromRuntimeMetrics(metricsAt, opts.signal);
    installed.plugins = mergeInstalled(named.plugins, installed.plugins);
    if (named.note) installed.notes.push(named.note);
    else if (named.plugins.length) installed.source += ` and the runtime's metrics`;
  }
  const plan = planProbes(installed.plugins, opts.probes ?? 'around');
  const metrics = opts.metricsAddr !== undefined ? new TraceMetrics() : undefined;
  let server: MetricsServer | undefined;
  if (metrics) server = await serveMetrics(metrics.registry, opts.metricsAddr!);
  const session = new TraceSession({
    target: endpoint,
    plan,
    events: opts.events,
    validator: opts.validator ?? false,
    ...(opts.accept ? { accept: opts.accept } : {}),
    ...(opts.filter ? { accept: (pod, ctr) => opts.filter!.matchesContainer(pod, ctr) } : {}),
    sink: opts.sink,
    requestTimeoutMs: opts.requestTimeoutMs,
    configTimeout: installed.configTimeout,
    metrics,
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    onProgress: sessionNotes(targetOf(opts.target), opts.notes).onProgress,
    ...(opts.name !== undefined ? { name: opts.name } : {}),
    recorder,
    ...(opts.filter?.matchesPodEvent && opts.filter.selectState && opts.filter.given
      ? { recordFilter: opts.filter as RecordFilter }
      : {}),
  });
  const gone = new Promise<SessionError>((resolve) => session.once('gone', resolve));
  const signalled = aborted(opts.signal).then((): TraceEndReason =>
    outputClosed(opts.signal) ? 'output-closed' : 'signal',
  );
  try {
    await session.start();
  } catch (err) {
    await server?.close();
    // Ctrl-C while the probes registered: none is left registered; end as a stopped trace does.
    if (err instanceof SessionError && err.code === 'cancelled' && opts.signal?.aborted)
      return { summary: await session.stop(0), reason: outputClosed(opts.signal) ? 'output-closed' : 'signal' };
    throw err;
  }
  metrics?.requestTimeout.set(session.requestTimeout().ms / 1000);
  recorder?.begin({
    nrictlVersion: opts.record!.nrictlVersion,
    source: 'trace',
    runtime: session.runtime,
    plugin: `${plan.probes[0]}-${opts.name ?? 'nrictl-trace'}`,
    events: session.probes?.probes[0]?.events ?? 0,
    traced: session.tracedEvents,
    ...(opts.filter?.given ? { filter: opts.filter.given } : {}),
    segments: plan.segments
      .filter((s) => !s.calibration)
      .map((s) => ({ label: s.label, plugins: s.plugins.map(pluginLabel) })),
  });
  opts.notes?.({
    kind: 'live',
    plan,
    notes: [...installed.notes, ...session.notes],
    runtime: session.runtime,
    pluginSource: installed.source,
    ...(server ? { metricsUrl: server.url } : {}),
    durationMs: opts.durationMs,
    scripted: endpoint.sim !== undefined,
  });

  let timer: NodeJS.Timeout | undefined;
  const elapsed =
    opts.durationMs === undefined
      ? new Promise<never>(() => {})
      : new Promise<TraceEndReason>((resolve) => (timer = setTimeout(() => resolve('duration'), opts.durationMs)));
  // On the simulator the trace ends with its script, once the last events had time to reach every probe.
  const scripted = endpoint.sim
    ? endpoint.sim.runScript().then((): TraceEndReason => 'script-done')
    : new Promise<never>(() => {});
  const outcome = await Promise.race([signalled, elapsed, scripted, gone]);
  if (timer) clearTimeout(timer);
  // A reader that went away reads nothing more: no wait for it.
  const summary = await session.stop(outcome === 'output-closed' ? 0 : undefined);
  await server?.close();
  if (outcome instanceof SessionError) {
    const error = new SessionError(
      outcome.code,
      `${outcome.message}: the runtime went away, restarted or dropped a probe; start nrictl trace again once it is back`,
      { cause: outcome },
    );
    return endRecording(recorder, { summary, reason: 'gone', error });
  }
  return endRecording(recorder, { summary, reason: outcome });
}

/** What the notes name: the socket, or the simulator. */
function targetOf(t: SessionTarget | Endpoint): SessionTarget {
  return isEndpoint(t) ? { socketPath: t.socketPath, sim: t.sim ? t.label : undefined } : t;
}

/** Resolves once the signal fired; never without one. */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return new Promise<never>(() => {});
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
