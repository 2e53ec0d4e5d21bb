// Per plugin (or group) and event: how many, p50/p99/max, and how close p99 comes to the
// runtime's request timeout, past which the runtime drops the plugin for good.
import type { RecordingSummary } from '../recording/index.js';
import type { TraceRecord } from './tracer.js';

/** Samples kept per plugin and event; older ones give way (a long trace stays bounded). */
const SAMPLE_CAP = 10_000;

export interface LatencyRow {
  label: string;
  plugins: string[];
  group: boolean;
  event: string;
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** p99 / request timeout. */
  timeoutShare: number;
  /** p99 passes half the request timeout. */
  warning: boolean;
  /**
   * Its slowest answer took the whole request timeout: the runtime gave up waiting and
   * dropped the plugin (or, in a group, one of them), as it drops every late one.
   */
  late: boolean;
}

export interface TraceSummary {
  requestTimeoutMs: number;
  requestTimeoutFrom: string;
  /** The runtime's setting for it, where to raise it (src/api requestTimeoutSetting). */
  requestTimeoutSetting: string;
  events: { traced: number; filtered: number; failed: number; stopped: number; printed: number; dropped: number };
  /** Median probe hop per event, subtracted from each segment. */
  hopMs: Record<string, { p50Ms: number; p99Ms: number; count: number }>;
  plugins: LatencyRow[];
  probes: string[];
  /** --record: what the recording holds. */
  recording?: RecordingSummary | undefined;
}

/**
 * Between the probes on either side of a plugin the runtime gave up on lies at least the
 * runtime's whole wait, as the runtime's clock counts it. Ours does not count it quite
 * alike: a timer (the simulator's, say) fires when its loop's cached time reaches the
 * deadline, and on a busy node that time was already tens of milliseconds behind when the
 * timer was set. So the raw time between the probes (no probe hop taken out: on a busy node
 * the median hop grows too) is held to this share of the timeout. A plugin that answered
 * within the last 3% of it is called dropped with it: it was a scheduling hiccup away.
 */
const GAVE_UP_SHARE = 0.97;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

interface Series {
  label: string;
  plugins: string[];
  group: boolean;
  event: string;
  samples: number[];
  count: number;
  max: number;
  /** The longest time between the probes, no hop taken out. */
  rawMax: number;
}

export class LatencyStats {
  private readonly series = new Map<string, Series>();
  private readonly hops = new Map<string, Series>();
  traced = 0;
  failed = 0;
  stopped = 0;

  add(r: TraceRecord): void {
    if (r.end === 'stopped') {
      this.stopped++;
      return;
    }
    this.traced++;
    if (r.end === 'failed') this.failed++;
    for (const s of r.segments) {
      if (s.ms === undefined) continue;
      const map = s.calibration ? this.hops : this.series;
      const key = `${s.calibration ? 'hop' : s.label}\u0000${r.event}`;
      let series = map.get(key);
      if (!series) {
        series = {
          label: s.label,
          plugins: s.plugins,
          group: s.group,
          event: r.event,
          samples: [],
          count: 0,
          max: 0,
          rawMax: 0,
        };
        map.set(key, series);
      }
      series.count++;
      series.max = Math.max(series.max, s.ms);
      series.rawMax = Math.max(series.rawMax, s.rawMs ?? s.ms);
      series.samples.push(s.ms);
      if (series.samples.length > SAMPLE_CAP) series.samples.shift();
    }
  }

  rows(requestTimeoutMs: number): LatencyRow[] {
    return [...this.series.values()].map((s) => {
      const sorted = [...s.samples].sort((a, b) => a - b);
      const p99 = percentile(sorted, 99);
      return {
        label: s.label,
        plugins: s.plugins,
        group: s.group,
        event: s.event,
        count: s.count,
        p50Ms: percentile(sorted, 50),
        p99Ms: p99,
        maxMs: s.max,
        timeoutShare: requestTimeoutMs > 0 ? p99 / requestTimeoutMs : 0,
        warning: requestTimeoutMs > 0 && p99 > requestTimeoutMs / 2,
        late: requestTimeoutMs > 0 && s.rawMax >= requestTimeoutMs * GAVE_UP_SHARE,
      };
    });
  }

  hopRows(): TraceSummary['hopMs'] {
    const out: TraceSummary['hopMs'] = {};
    for (const s of this.hops.values()) {
      const sorted = [...s.samples].sort((a, b) => a - b);
      out[s.event] = { p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), count: s.count };
    }
    return out;
  }
}
