// What trace counts, as Prometheus metrics, through prom-client: a registry of
// our own (not the process-global one), so two sessions in one process do not collide.
import { createRequire } from 'node:module';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RecordSink } from '../output/index.js';
import type { TraceRecord } from './tracer.js';

type PromClient = typeof import('prom-client');
let promClient: PromClient | undefined;
// Loaded when a trace counts (TraceMetrics is made): every command that imports this
// layer (doctor's latency finding, sim's replay) paid for prom-client and the https, tls
// and OpenTelemetry modules it loads (~8 ms of their start) and never counted anything.
function loadPromClient(): PromClient {
  promClient ??= createRequire(import.meta.url)('prom-client') as PromClient;
  return promClient;
}

/** Seconds: from half a millisecond to past the 2 s default request timeout. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 5];

export class TraceMetrics {
  readonly registry: Registry;
  readonly events: Counter<'event'>;
  readonly latency: Histogram<'plugin' | 'event'>;
  readonly adjustments: Counter<'plugin' | 'field'>;
  readonly failed: Counter<'plugin' | 'event'>;
  readonly dropped: Counter;
  readonly requestTimeout: Gauge;
  readonly probeHop: Histogram<'event'>;
  /** Where nrictl_trace_dropped_lines_total is read from, and how much of it was counted. */
  private readonly drops: { source: (() => number) | undefined; counted: number } = { source: undefined, counted: 0 };

  constructor() {
    const { Counter, Gauge, Histogram, Registry } = loadPromClient();
    this.registry = new Registry();
    const registers = [this.registry];
    this.events = new Counter({
      name: 'nrictl_trace_events_total',
      help: 'Events traced, by type.',
      labelNames: ['event'],
      registers,
    });
    this.latency = new Histogram({
      name: 'nrictl_trace_plugin_latency_seconds',
      help: 'Time a plugin (or a group of plugins with no free index between them) took on an event, one probe hop subtracted.',
      labelNames: ['plugin', 'event'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.adjustments = new Counter({
      name: 'nrictl_trace_adjustments_total',
      help: 'Fields a plugin (or group) changed in the request, by field.',
      labelNames: ['plugin', 'field'],
      registers,
    });
    this.failed = new Counter({
      name: 'nrictl_trace_conflicts_total',
      help: 'Requests that stopped in a plugin (or group): a conflict between plugins or a plugin error ended them before the next probe.',
      labelNames: ['plugin', 'event'],
      registers,
    });
    // Read from the sink's own count when scraped: the probes' handlers do no extra work.
    const drops = this.drops;
    this.dropped = new Counter({
      name: 'nrictl_trace_dropped_lines_total',
      help: 'Output records dropped because the output could not keep up.',
      registers,
      collect() {
        const now = drops.source?.() ?? 0;
        if (now > drops.counted) this.inc(now - drops.counted);
        drops.counted = Math.max(now, drops.counted);
      },
    });
    this.requestTimeout = new Gauge({
      name: 'nrictl_trace_request_timeout_seconds',
      help: "The runtime's request timeout trace compares plugin latency with.",
      registers,
    });
    this.probeHop = new Histogram({
      name: 'nrictl_trace_probe_hop_seconds',
      help: 'Time one probe adds to an event (the calibration pair).',
      labelNames: ['event'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
  }

  /** The sink whose dropped records nrictl_trace_dropped_lines_total counts. */
  countDropsOf(sink: Pick<RecordSink<unknown>, 'dropped'>): void {
    this.drops.source = () => sink.dropped;
  }

  record(r: TraceRecord): void {
    if (r.end === 'stopped') return;
    this.events.inc({ event: r.event });
    for (const s of r.segments) {
      if (s.ms === undefined) continue;
      if (s.calibration) {
        this.probeHop.observe({ event: r.event }, s.ms / 1000);
        continue;
      }
      this.latency.observe({ plugin: s.label, event: r.event }, s.ms / 1000);
      for (const c of s.changes) this.adjustments.inc({ plugin: c.owner ?? s.label, field: c.field });
    }
    if (r.stoppedIn !== undefined) this.failed.inc({ plugin: r.stoppedIn, event: r.event });
  }
}
