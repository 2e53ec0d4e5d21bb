// `nrictl trace` as a library: transient probe plugins at the planned indexes, each
// answering at once with no adjustment; a Tracer that puts their sightings together off
// the reply path; the caller's sink for the records (the command line's bounded queue
// into the output); statistics and metrics. Connecting,
// registering and deregistering the probes is src/session's ProbeSet.
import { EventEmitter } from 'node:events';
import { DEFAULT_SOCKET_PATH } from '../api/socket-path.js';
import { ALL_EVENTS_MASK, Event, eventBit, requestTimeoutSetting, type nri } from '../api/index.js';
import type { RecordingWriter, StateSelection } from '../recording/index.js';
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
  /**
   * trace --record: the first probe also takes every other event the runtime knows (but
   * validation) and the Synchronize state, and hands them with the traced ones to this
   * writer, as the runtime sent them (before any plugin: it is the first); what the
   * probes find goes to it too.
   */
  recorder?: RecordingWriter | undefined;
  /** Which pods and containers the recording keeps (the filters); everything without. */
  recordFilter?: RecordFilter | undefined;
}

/** The filters, as far as a recording needs them (src/observe's ObjectFilter has these). */
export interface RecordFilter {
  matchesPodEvent(pod: nri.IPodSandbox | null | undefined): boolean;
  matchesContainer(pod: nri.IPodSandbox | null | undefined, ctr: nri.IContainer | null | undefined): boolean;
  selectState: StateSelection;
}

/** What the first probe records besides the traced events: every event but validation. */
const RECORDED_EVENTS = ALL_EVENTS_MASK & ~eventBit(Event.VALIDATE_CONTAINER_ADJUSTMENT);

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
      onRecord: (r, seq) => {
        this.stats.add(r);
        opts.metrics?.record(r);
        if (seq !== undefined) opts.recorder?.trace(seq, r);
        if (r.end !== 'stopped') this.sink.push(r);
      },
    });
  }

  /** A probe's handlers: note the time and the request, answer at once with nothing. */
  private handlers(k: number, validator: boolean, traced: number): PluginHandlers {
    const tracer = this.tracer;
    const recorder = k === 0 ? this.opts.recorder : undefined;
    const filter = this.opts.recordFilter;
    // The first probe numbers the events it records, so that what the probes find later joins its event.
    const record = (event: Event, request: object, pod: nri.IPodSandbox, ctr?: nri.IContainer): number | undefined =>
      recorder && (filter === undefined || (ctr ? filter.matchesContainer(pod, ctr) : filter.matchesPodEvent(pod)))
        ? recorder.event(event, request)
        : undefined;
    const seen =
      (event: Event) =>
      (pod: nri.IPodSandbox, ctr: nri.IContainer, resources?: nri.ILinuxResources | null): void => {
        const request =
          event === Event.UPDATE_CONTAINER
            ? { pod, container: ctr, linuxResources: resources }
            : { pod, container: ctr };
        const seq = record(event, request, pod, ctr);
        if ((traced & eventBit(event)) === 0) return;
        tracer.observe({ probe: k, at: performance.now(), time: Date.now(), event, pod, ctr, resources, seq });
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
    if (recorder) {
      const pod = (event: Event) => (p: nri.IPodSandbox) => void record(event, { pod: p }, p);
      h.runPodSandbox = pod(Event.RUN_POD_SANDBOX);
      h.stopPodSandbox = pod(Event.STOP_POD_SANDBOX);
      h.removePodSandbox = pod(Event.REMOVE_POD_SANDBOX);
      h.postUpdatePodSandbox = pod(Event.POST_UPDATE_POD_SANDBOX);
      h.updatePodSandbox = (p, overhead, resources) =>
        void record(
          Event.UPDATE_POD_SANDBOX,
          { pod: p, overheadLinuxResources: overhead, linuxResources: resources },
          p,
        );
      // Answered before it is handed on (the SDK's synchronizeRaw): the state is written later.
      h.synchronizeRaw = (payloads) =>
        recorder.sync(payloads, filter ? (pods, ctrs) => filter.selectState(pods, ctrs) : undefined);
    }
    return h;
  }

  /** The events traced: those asked for that trace can follow. */
  get tracedEvents(): number {
    return (this.opts.events ?? DEFAULT_TRACE_EVENTS) & TRACEABLE_EVENTS.reduce((m, e) => m | eventBit(e), 0);
  }

  /** Registers every probe; rejects with a SessionError, and then no probe is left registered. */
  async start(): Promise<void> {
    const opts = this.opts;
    const mask = this.tracedEvents;
    const last = opts.plan.probes.length - 1;
    const wantValidator = opts.validator === true;
    try {
      this.probes = await ProbeSet.open({
        target: opts.target ?? { socketPath: opts.socketPath ?? DEFAULT_SOCKET_PATH },
        name: opts.name ?? 'nrictl-trace',
        probes: opts.plan.probes.map((index, k) => {
          const validator = wantValidator && k === last;
          const recorded = k === 0 && opts.recorder ? RECORDED_EVENTS : 0;
          return {
            index,
            handlers: this.handlers(k, validator, mask),
            events: mask | recorded | (validator ? eventBit(Event.VALIDATE_CONTAINER_ADJUSTMENT) : 0),
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
