// `nrictl trace` as a library: transient probe plugins at the planned indexes, each
// answering at once with no adjustment; a Tracer that puts their sightings together off
// the reply path; the caller's sink for the records (the command line's bounded queue
// into the output); statistics and metrics. Connecting,
// registering and deregistering the probes is src/session's ProbeSet.
import { EventEmitter } from 'node:events';
import { DEFAULT_SOCKET_PATH } from '../api/socket-path.js';
import { Event, eventBit, requestTimeoutSetting, type nri } from '../api/index.js';
import type { RecordSink } from '../output/index.js';
import {
  ProbeSet,
  type Endpoint,
  type PluginHandlers,
  type RuntimeInfo,
  type SessionError,
  type SessionPhase,
  type SessionTarget,
} from '../session/index.js';
import type { TraceMetrics } from './metrics.js';
import type { ProbePlan } from './placement.js';
import { LatencyStats, type TraceSummary } from './stats.js';
import { Tracer, type TraceRecord } from './tracer.js';

/** What trace follows unless told otherwise: the events whose request plugins adjust, and Stop. */
const DEFAULT_TRACE_EVENTS =
  eventBit(Event.CREATE_CONTAINER) | eventBit(Event.UPDATE_CONTAINER) | eventBit(Event.STOP_CONTAINER);
/** Container events a probe can follow (pod events have no container to correlate by). */
export const TRACEABLE_EVENTS: readonly Event[] = [
  Event.CREATE_CONTAINER,
  Event.POST_CREATE_CONTAINER,
  Event.START_CONTAINER,
  Event.POST_START_CONTAINER,
  Event.UPDATE_CONTAINER,
  Event.POST_UPDATE_CONTAINER,
  Event.STOP_CONTAINER,
  Event.REMOVE_CONTAINER,
];
/** Records trace holds while its output is behind (--buffer). */
export const DEFAULT_TRACE_QUEUE_CAPACITY = 1000;
const DEFAULT_REQUEST_TIMEOUT_MS = 2000;

export interface TraceSessionOptions {
  /** Where the probes register: a target, or an endpoint the caller opened (and closes); else socketPath. */
  target?: SessionTarget | Endpoint | undefined;
  /** The runtime's socket, when no target is given (default: the runtimes' default path). */
  socketPath?: string | undefined;
  plan: ProbePlan;
  /** Event mask; only TRACEABLE_EVENTS bits count. */
  events?: number;
  /** Subscribe the last probe to ValidateContainerAdjustment (NRI v0.10+) for the runtime's own field owners. */
  validator?: boolean;
  accept?: (pod: nri.IPodSandbox | null | undefined, ctr: nri.IContainer | null | undefined) => boolean;
  /** Where each traced event's record goes; push() must not wait. */
  sink: RecordSink<TraceRecord>;
  /** --request-timeout: wins over what the runtime says. */
  requestTimeoutMs?: number | undefined;
  /** From the runtime's configuration file, used when the runtime does not say in Configure (NRI v0.6 and older). */
  configTimeout?: { ms: number; from: string } | undefined;
  metrics?: TraceMetrics | undefined;
  name?: string;
  /** --timeout: bounds each probe's registration (unset: the SDK's bound). */
  timeoutMs?: number | undefined;
  /** Stops a registration under way (start() rejects with SessionError 'cancelled'), or the probes once live. */
  signal?: AbortSignal | undefined;
  onProgress?: ((phase: SessionPhase) => void) | undefined;
  /** The socket check's lines, when the target is a socket to be opened here. */
  onWarning?: ((text: string) => void) | undefined;
  /** An event not seen by every probe after this long is closed as failed (default: twice the request timeout and 1 s). */
  staleMs?: number;
}

/**
 * Events: 'gone' (err: SessionError) the runtime dropped a probe (or went away) and
 * every probe has left.
 */
export class TraceSession extends EventEmitter {
  /** The registered probes, once start() resolved. */
  probes: ProbeSet | undefined;
  readonly tracer: Tracer;
  readonly stats = new LatencyStats();
  private readonly sink: RecordSink<TraceRecord>;
  readonly notes: string[];
  filtered = 0;
  private stopped = false;

  constructor(readonly opts: TraceSessionOptions) {
    super();
    this.notes = [...opts.plan.notes];
    this.sink = opts.sink;
    opts.metrics?.countDropsOf(this.sink);
    const wantValidator = opts.validator === true;
    this.tracer = new Tracer(opts.plan, {
      staleMs: opts.staleMs ?? 2 * (opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS) + 1000,
      validationGraceMs: wantValidator ? 1000 : 0,
      ...(opts.accept ? { accept: opts.accept } : {}),
      onFiltered: () => this.filtered++,
      onRecord: (r) => {
        this.stats.add(r);
        opts.metrics?.record(r);
        if (r.end !== 'stopped') this.sink.push(r);
      },
    });
  }

  /** A probe's handlers: note the time and the request, answer at once with nothing. */
  private handlers(k: number, validator: boolean): PluginHandlers {
    const tracer = this.tracer;
    const seen =
      (event: Event) =>
      (pod: nri.IPodSandbox, ctr: nri.IContainer, resources?: nri.ILinuxResources | null): void => {
        tracer.observe({ probe: k, at: performance.now(), time: Date.now(), event, pod, ctr, resources });
      };
    const h: PluginHandlers = {
      createContainer: seen(Event.CREATE_CONTAINER),
      postCreateContainer: seen(Event.POST_CREATE_CONTAINER),
      startContainer: seen(Event.START_CONTAINER),
      postStartContainer: seen(Event.POST_START_CONTAINER),
      updateContainer: seen(Event.UPDATE_CONTAINER),
      postUpdateContainer: seen(Event.POST_UPDATE_CONTAINER),
      stopContainer: seen(Event.STOP_CONTAINER),
      removeContainer: seen(Event.REMOVE_CONTAINER),
    };
    if (validator) h.validateContainerAdjustment = (req) => tracer.validation(req);
    return h;
  }

  /** Registers every probe; rejects with a SessionError, and then no probe is left registered. */
  async start(): Promise<void> {
    const opts = this.opts;
    const mask = (opts.events ?? DEFAULT_TRACE_EVENTS) & TRACEABLE_EVENTS.reduce((m, e) => m | eventBit(e), 0);
    const last = opts.plan.probes.length - 1;
    const wantValidator = opts.validator === true;
    try {
      this.probes = await ProbeSet.open({
        target: opts.target ?? { socketPath: opts.socketPath ?? DEFAULT_SOCKET_PATH },
        name: opts.name ?? 'nrictl-trace',
        probes: opts.plan.probes.map((index, k) => {
          const validator = wantValidator && k === last;
          return {
            index,
            handlers: this.handlers(k, validator),
            events: mask | (validator ? eventBit(Event.VALIDATE_CONTAINER_ADJUSTMENT) : 0),
          };
        }),
        timeoutMs: opts.timeoutMs,
        signal: opts.signal,
        onProgress: opts.onProgress,
        onWarning: opts.onWarning,
      });
    } catch (err) {
      this.stopped = true;
      this.tracer.stop();
      throw err;
    }
    this.probes.once('end', (err?: SessionError) => {
      if (err && !this.stopped) this.emit('gone', err);
    });
    if (wantValidator && (this.probes.probes[last].events & eventBit(Event.VALIDATE_CONTAINER_ADJUSTMENT)) === 0) {
      this.notes.push('this runtime does not call validators (NRI before v0.10): attribution from the probes alone');
    }
  }

  get runtime(): RuntimeInfo | undefined {
    return this.probes?.runtime;
  }

  /** The request timeout plugin latency is judged against, and where it came from. */
  requestTimeout(): { ms: number; from: string } {
    if (this.opts.requestTimeoutMs !== undefined) return { ms: this.opts.requestTimeoutMs, from: '--request-timeout' };
    const configured = this.probes?.configuredRequestTimeoutMs;
    if (configured !== undefined) return { ms: configured, from: "the runtime's Configure request" };
    if (this.opts.configTimeout) return this.opts.configTimeout;
    return { ms: DEFAULT_REQUEST_TIMEOUT_MS, from: 'the default of containerd and CRI-O' };
  }

  summary(): TraceSummary {
    const t = this.requestTimeout();
    return {
      requestTimeoutMs: t.ms,
      requestTimeoutFrom: t.from,
      requestTimeoutSetting: requestTimeoutSetting(this.runtime?.name ?? '', this.runtime?.version ?? ''),
      events: {
        traced: this.stats.traced,
        filtered: this.filtered,
        failed: this.stats.failed,
        stopped: this.stats.stopped,
        printed: this.sink.written,
        dropped: this.sink.dropped,
      },
      hopMs: this.stats.hopRows(),
      plugins: this.stats.rows(t.ms),
      probes: this.opts.plan.probes,
    };
  }

  /** Deregisters every probe, then writes what is queued (for at most flushTimeoutMs). */
  async stop(flushTimeoutMs = 2000): Promise<TraceSummary> {
    this.stopped = true;
    await this.probes?.close();
    this.tracer.stop();
    this.opts.metrics?.requestTimeout.set(this.requestTimeout().ms / 1000);
    await this.sink.end(flushTimeoutMs);
    return this.summary();
  }
}
