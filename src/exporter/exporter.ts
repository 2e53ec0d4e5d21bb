// `nrictl exporter` as a library: serve /metrics, stay registered with the runtime, and
// re-read the node every interval until stopped. Nothing is kept per pod or per
// container: what the exporter holds is one reading of the node and a few counters.
import type { ErrorKind } from '../errors/index.js';
import { DropHistory } from '../diagnose/index.js';
import { serveMetrics } from '../output/index.js';
import {
  checkIdentity,
  DEFAULT_BACKOFF,
  metricsUrl,
  simPreset,
  type Backoff,
  type SessionTarget,
} from '../session/index.js';
import { ExporterMetrics } from './metrics.js';
import {
  EXPORTER_ERROR_KINDS,
  readNode,
  type ExporterErrorKind,
  type NodeReading,
  type NodeSources,
} from './reading.js';
import { Registration, type RegistrationNote, type RuntimeLabels } from './registration.js';

export interface ExporterOptions {
  target: SessionTarget;
  name: string;
  index: string;
  /** Bounds the registration, each call and the runtime's metrics page. */
  timeoutMs?: number | undefined;
  /** HOST:PORT to serve /metrics on. */
  metricsAddr: string;
  intervalMs: number;
  /** Stop after this long (--duration); undefined: until the signal. */
  durationMs?: number | undefined;
  /** The node's files: root, runtime configs, plugin directory; the runtime's metrics; the conformance report. */
  node: Omit<NodeSources, 'socketPath' | 'simulated' | 'timeoutMs' | 'history'> & { socketPath?: string | undefined };
  /** How recent a fatal failure must be for a plugin to be dropped (drop-window.ts); default 5 minutes. */
  dropWindowMs?: number | undefined;
  /** How registration is tried again when the runtime is away; default DEFAULT_BACKOFF (0.5 s doubling to 10 s). */
  backoff?: Backoff | undefined;
  notes?: ((note: ExporterNote) => void) | undefined;
}

export type ExporterNote =
  | RegistrationNote
  | { kind: 'metrics'; url: string }
  /** A part of the node could not be read (said once, until it can be again). */
  | { kind: 'read-failed'; error: ExporterErrorKind; message: string }
  | { kind: 'read-again'; error: ExporterErrorKind }
  /** Installed plugins whose running the probes cannot see: in no state. */
  | { kind: 'undetermined'; plugins: string[] };

export interface ExporterResult {
  metricsUrl: string;
  plugin: string;
  runtime: RuntimeLabels | undefined;
  registrations: number;
  refreshes: number;
  errors: Record<ExporterErrorKind, number>;
  durationMs: number;
}

class ExporterError extends Error {
  override readonly name = 'ExporterError';
  constructor(
    message: string,
    readonly kind: ErrorKind,
    readonly option?: string,
  ) {
    super(message);
  }
}

/**
 * Runs until the signal fires (or durationMs has passed). Rejects before touching the runtime for a bad address,
 * interval, metrics URL, name or index (usage errors); everything the node or the runtime
 * does afterwards is counted and said, never the end of the run.
 */
export async function runExporter(opts: ExporterOptions, signal: AbortSignal): Promise<ExporterResult> {
  if (!(opts.intervalMs > 0))
    throw new ExporterError('the interval must be longer than 0, such as 30s', 'usage', 'intervalMs');
  if (opts.dropWindowMs !== undefined && !(opts.dropWindowMs > 0))
    throw new ExporterError('the drop window must be longer than 0, such as 5m', 'usage', 'dropWindowMs');
  if (opts.target.simPreset !== undefined && opts.target.sim === undefined)
    throw new ExporterError('--preset is for the simulator: add --sim', 'usage');
  if (opts.node.metricsUrl !== undefined) metricsUrl(opts.node.metricsUrl);
  checkIdentity(opts.name, opts.index);
  await simPreset(opts.target);
  const started = Date.now();
  const notes = opts.notes ?? (() => {});
  const errors = Object.fromEntries(EXPORTER_ERROR_KINDS.map((k) => [k, 0])) as Record<ExporterErrorKind, number>;
  let registrations = 0;
  const countError = (kind: ExporterErrorKind): void => {
    errors[kind]++;
    metrics.error(kind);
  };
  const reg = new Registration({
    target: opts.target,
    name: opts.name,
    index: opts.index,
    timeoutMs: opts.timeoutMs,
    backoff: opts.backoff ?? DEFAULT_BACKOFF,
    notes,
    onRegistered: () => {
      registrations++;
      metrics.registered(reg.requestTimeoutSeconds);
    },
    onError: countError,
  });
  const metrics = new ExporterMetrics({ up: () => reg.up, runtime: () => reg.runtime });
  // Before registering: a bad address is the user's mistake, said before touching the runtime.
  const server = await serveMetrics(metrics.registry, opts.metricsAddr);
  notes({ kind: 'metrics', url: server.url });
  let refreshes = 0;
  try {
    const registered = reg.start();
    // The simulator's socket is known once it runs; a real runtime may come up later.
    if (opts.target.sim !== undefined) await registered;
    // What no retry mends (a socket path too long) ends the run at once, as a signal does.
    const run = new AbortController();
    const stopRun = (): void => run.abort();
    signal.addEventListener('abort', stopRun, { once: true });
    if (signal.aborted) run.abort();
    const timer = opts.durationMs === undefined ? undefined : setTimeout(stopRun, opts.durationMs);
    let fatal: Error | undefined;
    registered.catch((err: unknown) => {
      fatal = err as Error;
      run.abort();
    });
    const failing = new Map<ExporterErrorKind, string>();
    // One history for the run: each refresh is compared with the ones before it.
    const history = new DropHistory(opts.dropWindowMs);
    let undeterminedSaid = '';
    while (!run.signal.aborted) {
      const socketPath = opts.node.socketPath ?? reg.socketPath;
      const { reading, errors: found } = await readNode(
        {
          ...opts.node,
          ...(socketPath !== undefined ? { socketPath } : {}),
          simulated: opts.target.sim !== undefined,
          simPlugins: () => reg.simPlugins(),
          history,
          timeoutMs: Math.min(opts.timeoutMs ?? 5000, opts.intervalMs),
        },
        { name: reg.fullName, connected: reg.up },
        signal,
      );
      refreshes++;
      metrics.show(reading);
      for (const e of found) {
        countError(e.kind);
        if (failing.get(e.kind) !== e.message) notes({ kind: 'read-failed', error: e.kind, message: e.message });
        failing.set(e.kind, e.message);
      }
      for (const kind of [...failing.keys()])
        if (!found.some((e) => e.kind === kind)) {
          failing.delete(kind);
          notes({ kind: 'read-again', error: kind });
        }
      undeterminedSaid = sayUndetermined(reading, undeterminedSaid, notes);
      await sleep(opts.intervalMs, run.signal);
    }
    signal.removeEventListener('abort', stopRun);
    clearTimeout(timer);
    if (fatal !== undefined) throw fatal;
  } finally {
    await reg.stop();
    await server.close();
  }
  return {
    metricsUrl: server.url,
    plugin: reg.fullName,
    runtime: reg.runtime,
    registrations,
    refreshes,
    errors,
    durationMs: Date.now() - started,
  };
}

function sayUndetermined(reading: NodeReading, said: string, notes: (n: ExporterNote) => void): string {
  const now = reading.undetermined.join(',');
  if (now !== said && now !== '') notes({ kind: 'undetermined', plugins: reading.undetermined });
  return now;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
