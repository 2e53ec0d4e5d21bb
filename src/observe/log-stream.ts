// `nrictl logs` as a library: a watch session whose handlers only note what arrived and
// push it into the caller's sink (which must not wait either: the command line's bounded
// queue). The runtime's requests are answered as soon as they are decoded, whatever
// the output does.
import { EventEmitter } from 'node:events';
import { ALL_EVENTS_MASK, Event, eventBit, formatEventMask } from '../api/index.js';
import {
  recordingFailed,
  RecordingWriter,
  type RecordingError,
  type RecordingNote,
  type RecordingOptions,
  type RecordingSummary,
} from '../recording/index.js';
import { OUTPUT_CLOSED, serveMetrics, type MetricsServer, type RecordSink } from '../output/index.js';
import {
  EventWatch,
  SessionError,
  sessionNotes,
  type Backoff,
  type SessionNote,
  type SessionOptions,
  type WatchNotice,
} from '../session/index.js';
import { EventLog, type LoggedEvent } from './event-log.js';
import { ObjectFilter, type FilterSpec } from './filters.js';
import { LogMetrics } from './metrics.js';
import { loggedRequest } from './recorded-request.js';

/** Events `nrictl logs` holds while its output is behind (--buffer). */
export const DEFAULT_LOG_QUEUE_CAPACITY = 1000;

/**
 * What a logger subscribes to unless told otherwise: every event but
 * ValidateContainerAdjustment. A subscribed validator is on the critical path of every
 * container creation (a late or failed answer fails the creation), a risk an observer
 * must not add to a node; `--events validate` opts in.
 */
export const DEFAULT_LOG_EVENTS = ALL_EVENTS_MASK & ~eventBit(Event.VALIDATE_CONTAINER_ADJUSTMENT);

export interface LogStreamOptions extends Omit<SessionOptions, 'signal' | 'onProgress' | 'onWarning'> {
  /** Subscription mask; undefined: DEFAULT_LOG_EVENTS, clipped to what the runtime knows. */
  events?: number | undefined;
  filter?: FilterSpec | undefined;
  /** Where each event goes; push() must not wait. */
  sink: RecordSink<LoggedEvent>;
  /** What people are told while it runs: connecting, registered, metrics served, the runtime gone and back. */
  notes?: ((note: LogNote) => void) | undefined;
  /** Register again after the runtime went away (--reconnect). */
  reconnect?: Backoff | false | undefined;
  /** Serve Prometheus metrics on HOST:PORT/metrics while running (--metrics-addr). */
  metricsAddr?: string | undefined;
  /** --record FILE: also write a recording (docs/recording.md) of what the filters select. */
  record?: (RecordingOptions & { nrictlVersion: string }) | undefined;
}

export type LogNote =
  | SessionNote
  | {
      kind: 'registered';
      plugin: string;
      /** The runtime's name and version, as it registered us. */
      runtime: string | undefined;
      socketPath: string;
      sim?: string | undefined;
      /** The events subscribed, or undefined for the default (all but validation). */
      events: string | undefined;
    }
  | { kind: 'metrics'; url: string }
  | RecordingNote
  /** Only with reconnect: the runtime went away, a retry, back after a gap. */
  | WatchNotice;

export interface LogSummary {
  seen: number;
  filtered: number;
  printed: number;
  /** Events that passed the filters but never reached the output. */
  dropped: number;
  /** False when the output was still blocked when we gave up flushing. */
  flushed: boolean;
  /** --record: what the recording holds. */
  recording?: RecordingSummary | undefined;
}

/** How a run ended: stopped (a signal), the --sim script done, the output's reader gone, the runtime gone. */
export type LogEnd = 'stopped' | 'script-done' | 'output-closed' | 'runtime-gone';

export interface LogResult {
  summary: LogSummary;
  end: LogEnd;
  /**
   * Set when the runtime went away for good (end 'runtime-gone'), or the recording could
   * not be written: what the command ends with.
   */
  error?: SessionError | RecordingError | undefined;
}

/**
 * Watches the runtime's events into opts.sink until the signal fires (Ctrl-C, or the
 * output's reader went away: reason 'output-closed'), the --sim script ends, or the
 * runtime goes away for good. Rejects with a SessionError when the registration fails;
 * resolves with the counts once everything that could be written was.
 */
export function watchEvents(opts: LogStreamOptions, signal: AbortSignal, flushTimeoutMs = 2000): Promise<LogResult> {
  return new LogStream(opts).run(signal, flushTimeoutMs);
}

/** Emits 'registered' once the first registration is done. */
class LogStream extends EventEmitter {
  readonly watch: EventWatch;
  readonly log: EventLog;
  private registrations = 0;
  private metricsServer: MetricsServer | undefined;
  private readonly sink: RecordSink<LoggedEvent>;
  private readonly notes: (note: LogNote) => void;
  /** --record: opened before registering, fed from the same handlers as the output. */
  private recorder: RecordingWriter | undefined;
  /** The filters, as the recording's header names them. */
  private readonly filterGiven: ObjectFilter['given'];

  constructor(private readonly opts: LogStreamOptions) {
    super();
    this.sink = opts.sink;
    this.notes = opts.notes ?? (() => {});
    // A bad filter is the user's mistake, reported before touching the runtime.
    const filter = new ObjectFilter(opts.filter);
    this.filterGiven = filter.given;
    this.log = new EventLog(filter, (e) => {
      this.sink.push(e);
      this.recorder?.event(e.event, loggedRequest(e));
    });
    const handlers = this.log.handlers();
    const log = this.log;
    handlers.synchronizeRaw = (payloads) => {
      this.recorder?.sync(payloads, (pods, containers) => filter.selectState(pods, containers));
      log.learnState(payloads);
    };
    this.watch = new EventWatch({
      ...opts,
      ...sessionNotes(opts.target, opts.notes),
      events: opts.events ?? DEFAULT_LOG_EVENTS,
      handlers,
      reconnect: opts.reconnect,
    });
    this.watch.on('notice', (n: WatchNotice) => {
      if (n.kind === 'back') {
        this.registrations++;
        this.recorder?.gap(n.gapMs);
      }
      // Without reconnect the end is reported as the run's error.
      if (opts.reconnect) this.notes(n);
    });
  }

  /** Events subscribed, as answered to Configure. */
  get events(): number {
    return this.watch.events;
  }

  /**
   * Registers (rejects with a SessionError when that fails), then logs until the signal
   * fires, the simulated script ends, or the runtime goes away for good. Resolves with
   * how it ended and the counts, everything flushed that could be (for at most
   * flushTimeoutMs; at once when the output's reader went away).
   */
  async run(signal: AbortSignal, flushTimeoutMs = 2000): Promise<LogResult> {
    if (this.opts.metricsAddr !== undefined) {
      // Before registering: a bad address is the user's mistake, reported before touching the runtime.
      const metrics = new LogMetrics({
        seenByEvent: this.log.seenByEvent,
        dropped: () => this.sink.dropped,
        registrations: () => this.registrations,
      });
      this.metricsServer = await serveMetrics(metrics.registry, this.opts.metricsAddr);
      this.notes({ kind: 'metrics', url: this.metricsServer.url });
    }
    try {
      // Before registering too: a file already there is the user's mistake, said before touching the runtime.
      if (this.opts.record) this.recorder = await RecordingWriter.open(this.opts.record, this.notes);
      return await this.runRegistered(signal, flushTimeoutMs);
    } finally {
      await this.metricsServer?.close();
      // A registration that failed leaves no file behind (end() removes it).
      await this.recorder?.end();
    }
  }

  private async runRegistered(signal: AbortSignal, flushTimeoutMs: number): Promise<LogResult> {
    const aborted = new Promise<LogEnd>((resolve) => {
      const end = (): void => resolve(signal.reason === OUTPUT_CLOSED ? 'output-closed' : 'stopped');
      if (signal.aborted) end();
      signal.addEventListener('abort', end, { once: true });
    });
    const started = await Promise.race([this.watch.start().then(() => undefined), aborted]);
    if (started) return { end: started, summary: await this.finish(0, true) };
    this.registrations++;
    this.recorder?.begin({
      nrictlVersion: this.opts.record!.nrictlVersion,
      source: 'logs',
      runtime: this.watch.runtime,
      plugin: this.watch.pluginName,
      events: this.watch.events,
      filter: this.filterGiven,
    });
    const target = this.opts.target;
    this.notes({
      kind: 'registered',
      plugin: this.watch.pluginName,
      runtime: this.watch.runtime?.label,
      socketPath: target.socketPath,
      sim: target.sim,
      events: this.opts.events === undefined ? undefined : formatEventMask(this.watch.events),
    });
    this.emit('registered');

    let error: SessionError | RecordingError | undefined;
    const gone = new Promise<LogEnd>((resolve) =>
      this.watch.once('end', (err?: SessionError) => {
        if (!err) return;
        error = new SessionError(
          'runtime-gone',
          `${err.message}: the runtime went away or restarted; --reconnect waits for it to come back`,
          { cause: err },
        );
        resolve('runtime-gone');
      }),
    );
    const sim = this.watch.sim;
    const scriptDone = sim ? sim.runScript().then((): LogEnd => 'script-done') : new Promise<LogEnd>(() => {});
    const end = await Promise.race([aborted, gone, scriptDone]);
    // A reader that went away (`nrictl logs | head`) reads nothing more: no wait for it.
    const summary = await this.finish(end === 'output-closed' ? 0 : flushTimeoutMs, end === 'stopped');
    if (this.recorder) {
      summary.recording = await this.recorder.end();
      const failed = summary.recording.error;
      if (failed !== undefined) error ??= recordingFailed(summary.recording.file, failed);
    }
    return error ? { end, summary, error } : { end, summary };
  }

  summary(flushed: boolean): LogSummary {
    const { seen, filtered } = this.log.counts;
    const printed = this.sink.written;
    return { seen, filtered, printed, dropped: seen - filtered - printed, flushed };
  }

  /**
   * Unregisters by closing the connection (at once when the user stopped us), then writes
   * what is queued (for at most flushTimeoutMs: a blocked output must not keep us forever).
   */
  private async finish(flushTimeoutMs: number, stopped = false): Promise<LogSummary> {
    await this.watch.stop({ immediate: stopped });
    const r = await this.sink.end(flushTimeoutMs);
    return this.summary(r.complete);
  }
}
