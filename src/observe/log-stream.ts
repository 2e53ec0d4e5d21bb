// `nrictl logs` as a library: a watch session whose handlers only queue, and a bounded
// queue that renders into the output when it can. The runtime's requests are answered
// as soon as they are decoded, whatever the output does.
import { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';
import { ALL_EVENTS_MASK, Event, eventBit } from '../api/index.js';
import { BoundedOutputQueue, chalk, defaultDropNotice, serveMetrics, type MetricsServer } from '../render/index.js';
import {
  EventWatch,
  SessionError,
  type Backoff,
  type RuntimeInfo,
  type SessionOptions,
  type WatchNotice,
} from '../session/index.js';
import { EventLog, type LoggedEvent } from './event-log.js';
import type { ObjectFilter } from './filters.js';
import { LogMetrics } from './metrics.js';
import { renderLoggedEvent, type LogFormat } from './render-event.js';

/** Events `nrictl logs` holds while its output is behind (--buffer). */
export const DEFAULT_LOG_QUEUE_CAPACITY = 1000;

/**
 * What a logger subscribes to unless told otherwise: every event but
 * ValidateContainerAdjustment. A subscribed validator is on the critical path of every
 * container creation (a late or failed answer fails the creation), a risk an observer
 * must not add to a node; `--events validate` opts in.
 */
export const DEFAULT_LOG_EVENTS = ALL_EVENTS_MASK & ~eventBit(Event.VALIDATE_CONTAINER_ADJUSTMENT);
const LOG_RENDER_BATCH = 8;

export interface LogStreamOptions extends Omit<SessionOptions, 'signal'> {
  /** Subscription mask; undefined: DEFAULT_LOG_EVENTS, clipped to what the runtime knows. */
  events?: number | undefined;
  filter: ObjectFilter;
  format: LogFormat;
  out: Writable;
  /** Events held while the output is behind; beyond that they are dropped and counted. */
  capacity?: number | undefined;
  /** Register again after the runtime went away (--reconnect). */
  reconnect?: Backoff | false | undefined;
  /** Serve Prometheus metrics on HOST:PORT/metrics while running (--metrics-addr). */
  metricsAddr?: string | undefined;
}

export interface LogSummary {
  seen: number;
  filtered: number;
  printed: number;
  /** Events that passed the filters but never reached the output. */
  dropped: number;
  /** False when the output was still blocked when we gave up flushing. */
  flushed: boolean;
}

/** How a run ended. */
export type LogEnd =
  | { kind: 'stopped' }
  | { kind: 'script-done' }
  | { kind: 'output-closed' }
  | { kind: 'runtime-gone'; error: SessionError };

/**
 * Events: 'dropped' (count) when drops are reported (in text, also written in place to
 * the output; for json/yaml only here, so the data stream stays parseable), 'notice'
 * (WatchNotice: the runtime went away, a retry, back after a gap), 'registered' once the
 * first registration is done, 'metrics' (url) once /metrics is served.
 */
export class LogStream extends EventEmitter {
  readonly watch: EventWatch;
  readonly log: EventLog;
  readonly queue: BoundedOutputQueue<LoggedEvent>;
  private registrations = 0;
  private metricsServer: MetricsServer | undefined;

  constructor(private readonly opts: LogStreamOptions) {
    super();
    const format = opts.format;
    this.queue = new BoundedOutputQueue<LoggedEvent>(opts.out, {
      capacity: opts.capacity ?? DEFAULT_LOG_QUEUE_CAPACITY,
      // Rendering shares the thread with the replies: a few events per turn of the event
      // loop, so a request arriving during a backlog waits for at most a short batch.
      batch: LOG_RENDER_BATCH,
      render: (e) => renderLoggedEvent(e, format),
      dropNotice: format === 'text' ? (n) => chalk.yellow(defaultDropNotice(n)) : () => undefined,
    });
    this.queue.on('dropped', (n: number) => this.emit('dropped', n));
    this.log = new EventLog(opts.filter, (e) => {
      this.queue.push(e);
    });
    this.watch = new EventWatch({
      ...opts,
      events: opts.events ?? DEFAULT_LOG_EVENTS,
      handlers: this.log.handlers(),
      reconnect: opts.reconnect,
    });
    this.watch.on('notice', (n: WatchNotice) => {
      if (n.kind === 'back') this.registrations++;
      this.emit('notice', n);
    });
  }

  get runtime(): RuntimeInfo | undefined {
    return this.watch.runtime;
  }

  /** Events subscribed, as answered to Configure. */
  get events(): number {
    return this.watch.events;
  }

  /**
   * Registers (rejects with a SessionError when that fails), then logs until the signal
   * fires, the simulated script ends, the output's reader leaves, or the runtime goes
   * away for good. Resolves with how it ended and the counts, everything flushed that
   * could be (for at most flushTimeoutMs).
   */
  async run(signal: AbortSignal, flushTimeoutMs = 2000): Promise<{ end: LogEnd; summary: LogSummary }> {
    if (this.opts.metricsAddr !== undefined) {
      // Before registering: a bad address is the user's mistake, reported before touching the runtime.
      const metrics = new LogMetrics({
        seenByEvent: this.log.seenByEvent,
        dropped: () => this.queue.dropped,
        registrations: () => this.registrations,
      });
      this.metricsServer = await serveMetrics(metrics.registry, this.opts.metricsAddr);
      this.emit('metrics', this.metricsServer.url);
    }
    try {
      return await this.runRegistered(signal, flushTimeoutMs);
    } finally {
      await this.metricsServer?.close();
    }
  }

  private async runRegistered(
    signal: AbortSignal,
    flushTimeoutMs: number,
  ): Promise<{ end: LogEnd; summary: LogSummary }> {
    const aborted = new Promise<LogEnd>((resolve) => {
      if (signal.aborted) resolve({ kind: 'stopped' });
      signal.addEventListener('abort', () => resolve({ kind: 'stopped' }), { once: true });
    });
    const started = await Promise.race([this.watch.start().then(() => undefined), aborted]);
    if (started) return { end: started, summary: await this.finish(0, true) };
    this.registrations++;
    this.emit('registered');

    const gone = new Promise<LogEnd>((resolve) =>
      this.watch.once('end', (error?: SessionError) => error && resolve({ kind: 'runtime-gone', error })),
    );
    // A reader that went away (`nrictl logs | head`): nothing more can be shown, so the
    // command ends as a pipeline expects rather than go on dropping everything.
    const outputClosed = new Promise<LogEnd>((resolve) =>
      this.opts.out.once('error', () => resolve({ kind: 'output-closed' })),
    );
    const sim = this.watch.sim;
    const scriptDone = sim
      ? sim.runScript().then((): LogEnd => ({ kind: 'script-done' }))
      : new Promise<LogEnd>(() => {});
    const end = await Promise.race([aborted, gone, outputClosed, scriptDone]);
    return {
      end,
      summary: await this.finish(end.kind === 'output-closed' ? 0 : flushTimeoutMs, end.kind === 'stopped'),
    };
  }

  summary(): LogSummary {
    const { seen, filtered } = this.log.counts;
    const printed = this.queue.written;
    return { seen, filtered, printed, dropped: seen - filtered - printed, flushed: this.queue.pending === 0 };
  }

  /**
   * Unregisters by closing the connection (at once when the user stopped us), then writes
   * what is queued (for at most flushTimeoutMs: a blocked output must not keep us forever)
   * and the last drop notice.
   */
  private async finish(flushTimeoutMs: number, stopped = false): Promise<LogSummary> {
    await this.watch.stop({ immediate: stopped });
    const r = await this.queue.end(flushTimeoutMs);
    return { ...this.summary(), flushed: r.complete };
  }
}

/** "42 events seen, 40 printed, 2 dropped (5 filtered out)". */
export function formatLogSummary(s: LogSummary): string {
  const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
  let line = `${plural(s.seen, 'event')} seen, ${s.printed} printed, ${s.dropped} dropped`;
  if (s.filtered > 0) line += ` (${s.filtered} filtered out)`;
  return line;
}
