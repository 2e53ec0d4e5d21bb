// `nrictl logs` as a library: a transient plugin whose handlers only queue, and a
// bounded queue that renders into the output when it can. The runtime's requests are
// answered as soon as they are decoded, whatever the output does.
import { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';
import { ALL_EVENTS_MASK, Event, eventBit } from '../api/events.js';
import { Stub, type RuntimeInfo } from '../plugin/index.js';
import { BoundedOutputQueue, defaultDropNotice } from '../render/bounded-queue.js';
import { chalk } from '../render/colour.js';
import { EventLog, type LoggedEvent } from './event-log.js';
import type { ObjectFilter } from './filters.js';
import { renderLoggedEvent, type LogFormat } from './render-event.js';

import { DEFAULT_LOG_QUEUE_CAPACITY } from './defaults.js';

export { DEFAULT_LOG_QUEUE_CAPACITY };

/**
 * What a logger subscribes to unless told otherwise: every event but
 * ValidateContainerAdjustment. A subscribed validator is on the critical path of every
 * container creation (a late or failed answer fails the creation), a risk an observer
 * must not add to a node; `--events validate` opts in.
 */
export const DEFAULT_LOG_EVENTS = ALL_EVENTS_MASK & ~eventBit(Event.VALIDATE_CONTAINER_ADJUSTMENT);
const LOG_RENDER_BATCH = 8;

export interface LogStreamOptions {
  socketPath?: string | undefined;
  name: string;
  index: string;
  /** Subscription mask; undefined: DEFAULT_LOG_EVENTS, clipped to what the runtime knows. */
  events?: number | undefined;
  filter: ObjectFilter;
  format: LogFormat;
  out: Writable;
  /** Events held while the output is behind; beyond that they are dropped and counted. */
  capacity?: number;
  registrationTimeoutMs?: number;
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

/**
 * Events: 'dropped' (count) when drops are reported (in text, also written in place to
 * the output; for json/yaml only here, so the data stream stays parseable), 'close'
 * (err?: Error) when the runtime went away on its own, 'output-closed' (err) when the
 * output failed (EPIPE: its reader left).
 */
export class LogStream extends EventEmitter {
  readonly stub: Stub;
  readonly log: EventLog;
  readonly queue: BoundedOutputQueue<LoggedEvent>;
  private stopped = false;

  constructor(opts: LogStreamOptions) {
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
    this.stub = new Stub(this.log.handlers(), {
      name: opts.name,
      index: opts.index,
      ...(opts.socketPath !== undefined ? { socketPath: opts.socketPath } : {}),
      events: opts.events ?? DEFAULT_LOG_EVENTS,
      ...(opts.registrationTimeoutMs !== undefined ? { registrationTimeoutMs: opts.registrationTimeoutMs } : {}),
    });
    // A reader that went away (`nrictl logs | head`): nothing more can be shown, so the
    // command should end as a pipeline expects rather than go on dropping everything.
    opts.out.once('error', (err: Error) => {
      if (!this.stopped) this.emit('output-closed', err);
    });
    this.stub.on('close', (err?: Error) => {
      if (!this.stopped) this.emit('close', err);
    });
  }

  /** Registers; resolves once the runtime has synchronized us (rejects with a PluginError). */
  start(): Promise<void> {
    return this.stub.start();
  }

  get runtime(): RuntimeInfo | undefined {
    return this.stub.runtime;
  }

  /** Events subscribed, as answered to Configure. */
  get events(): number {
    return this.stub.events;
  }

  summary(): LogSummary {
    const { seen, filtered } = this.log.counts;
    const printed = this.queue.written;
    return { seen, filtered, printed, dropped: seen - filtered - printed, flushed: this.queue.pending === 0 };
  }

  /**
   * Unregisters by closing the connection, then writes what is queued (for at most
   * flushTimeoutMs: a blocked output must not keep us forever) and the last drop notice.
   */
  async stop(flushTimeoutMs = 2000): Promise<LogSummary> {
    this.stopped = true;
    await this.stub.stop().catch(() => {});
    const r = await this.queue.end(flushTimeoutMs);
    return { ...this.summary(), flushed: r.complete };
  }

  /** After the runtime left: flush what we have and report. */
  async drain(flushTimeoutMs = 2000): Promise<LogSummary> {
    this.stopped = true;
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
