// What containerd (2.3 and later) counts about its NRI plugins, from one scrape of
// /v1/metrics (internal/nri/metrics.go): invocations by plugin, operation, status and
// error, the latency histogram (Prometheus' default buckets), and the number of active
// plugins. Series carry the plugin's full NN-name, external plugins' too.
//
// No series says a plugin was dropped. The runtime drops a plugin at its first fatal
// error (a call past the request timeout, error="deadline_exceeded", or a dead
// connection, "other"; nri pkg/adaptation isFatalError), and series are never deleted:
// a plugin seen failing that way is gone unless it reconnected. The gauge tells how many
// named plugins are gone; when no more plugins failed fatally than are gone, each of
// them is gone for certain. The counters are cumulative since the runtime started, so one
// page cannot say when a plugin failed: whether that was recently enough to be called
// "dropped" is for whoever compares two readings (diagnose/drop-window.ts).
import type { Sample } from './exposition.js';

/** client_golang's process collector: when the runtime's process started (unix seconds). */
const PROCESS_START = 'process_start_time_seconds';

const NRI_METRICS = Object.freeze({
  active: 'containerd_nri_active_plugins_total',
  invocations: 'containerd_nri_plugin_invocations_total',
  latencyBucket: 'containerd_nri_plugin_latency_seconds_bucket',
  latencySum: 'containerd_nri_plugin_latency_seconds_sum',
  latencyCount: 'containerd_nri_plugin_latency_seconds_count',
});

/** Errors after which the runtime has closed the plugin (isFatalError: deadline exceeded, a closed connection). */
const FATAL_ERRORS = ['deadline_exceeded', 'other'] as const;

export interface OperationMetrics {
  /** "CreateContainer", "Synchronize", ... */
  operation: string;
  invocations: number;
  /** Failed calls by the runtime's error label ("deadline_exceeded", "unknown", ...). */
  errors: Record<string, number>;
  /** Seconds, estimated from the histogram buckets as Prometheus' histogram_quantile does; undefined without observations. */
  p50?: number | undefined;
  p99?: number | undefined;
  /** The least p99 can be: the lower bound of its bucket (what warnings go by). */
  p99AtLeast?: number | undefined;
  /** Mean latency in seconds (the histogram's sum over its count). */
  mean?: number | undefined;
}

export type PluginState =
  /** Counted as active, with no fatal failure recorded. */
  | 'active'
  /** Failed fatally (when, the counters do not say) and not among the active ones: the runtime closed it then. */
  | 'gone'
  /** Failed fatally; the counts cannot tell whether it reconnected since. */
  | 'failed';

export interface PluginMetrics {
  /** "30-slow". */
  plugin: string;
  state: PluginState;
  invocations: number;
  errors: number;
  /** The fatal failure that closed it, where it had one: "CreateContainer: deadline_exceeded". */
  fatal?: string | undefined;
  /** Calls that failed fatally since the runtime started (a plugin that reconnects under the same name can fail again). */
  fatalCount: number;
  operations: OperationMetrics[];
}

export interface NriMetrics {
  /** containerd_nri_active_plugins_total; undefined when the page has no NRI metrics at all. */
  activePlugins: number | undefined;
  plugins: PluginMetrics[];
  /** When the runtime's process started (ms since the epoch), where the page says: every count is since then. */
  runtimeStartedMs?: number | undefined;
}

/** The NRI part of a scrape; `activePlugins` undefined: the runtime serves no NRI metrics (not containerd 2.3+). */
export function nriMetrics(samples: readonly Sample[]): NriMetrics {
  const active = samples.find((s) => s.name === NRI_METRICS.active)?.value;
  const ops = new Map<string, Map<string, OperationMetrics>>();
  const buckets = new Map<string, Array<{ le: number; count: number }>>();
  const sums = new Map<string, { sum: number; count: number }>();
  const op = (plugin: string, operation: string): OperationMetrics => {
    let byOp = ops.get(plugin);
    if (!byOp) ops.set(plugin, (byOp = new Map<string, OperationMetrics>()));
    let o = byOp.get(operation);
    if (!o) byOp.set(operation, (o = { operation, invocations: 0, errors: {} }));
    return o;
  };
  for (const s of samples) {
    const { plugin, operation } = s.labels;
    if (plugin === undefined || operation === undefined) continue;
    const key = `${plugin}\0${operation}`;
    if (s.name === NRI_METRICS.invocations) {
      const o = op(plugin, operation);
      o.invocations += s.value;
      if (s.labels.status === 'error') {
        const e = s.labels.error || 'unknown';
        o.errors[e] = (o.errors[e] ?? 0) + s.value;
      }
    } else if (s.name === NRI_METRICS.latencyBucket && s.labels.le !== undefined) {
      op(plugin, operation);
      const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
      if (!Number.isNaN(le)) buckets.set(key, [...(buckets.get(key) ?? []), { le, count: s.value }]);
    } else if (s.name === NRI_METRICS.latencySum || s.name === NRI_METRICS.latencyCount) {
      op(plugin, operation);
      const t = sums.get(key) ?? { sum: 0, count: 0 };
      if (s.name === NRI_METRICS.latencySum) t.sum = s.value;
      else t.count = s.value;
      sums.set(key, t);
    }
  }
  const plugins: PluginMetrics[] = [...ops.entries()].map(([plugin, byOp]) => {
    const operations = [...byOp.values()].map((o) => {
      const key = `${plugin}\0${o.operation}`;
      const b = (buckets.get(key) ?? []).sort((x, y) => x.le - y.le);
      const t = sums.get(key);
      return {
        ...o,
        p50: quantile(0.5, b)?.value,
        p99: quantile(0.99, b)?.value,
        p99AtLeast: quantile(0.99, b)?.atLeast,
        mean: t && t.count > 0 ? t.sum / t.count : undefined,
      };
    });
    operations.sort((a, b) => a.operation.localeCompare(b.operation));
    const fatal = operations.flatMap((o) =>
      FATAL_ERRORS.filter((e) => (o.errors[e] ?? 0) > 0).map((e) => `${o.operation}: ${e}`),
    );
    const fatalCount = operations.reduce((n, o) => n + FATAL_ERRORS.reduce((k, e) => k + (o.errors[e] ?? 0), 0), 0);
    return {
      plugin,
      state: 'active',
      invocations: operations.reduce((n, o) => n + o.invocations, 0),
      errors: operations.reduce((n, o) => n + Object.values(o.errors).reduce((a, b) => a + b, 0), 0),
      fatal: fatal[0],
      fatalCount,
      operations,
    };
  });
  plugins.sort((a, b) => (a.plugin < b.plugin ? -1 : a.plugin > b.plugin ? 1 : 0));
  if (active !== undefined) {
    const gone = plugins.length - active;
    const failed = plugins.filter((p) => p.fatal !== undefined);
    for (const p of failed) p.state = gone > 0 && failed.length <= gone ? 'gone' : 'failed';
  }
  const started = samples.find((s) => s.name === PROCESS_START)?.value;
  const runtimeStartedMs =
    started !== undefined && Number.isFinite(started) && started > 0 ? started * 1000 : undefined;
  return { activePlugins: active, plugins, ...(runtimeStartedMs !== undefined ? { runtimeStartedMs } : {}) };
}

/**
 * The q-quantile of a cumulative histogram, interpolated within its bucket as Prometheus'
 * histogram_quantile does, and the bucket's lower bound; in the +Inf bucket, the highest
 * finite bound (the value is past it).
 */
export function quantile(
  q: number,
  buckets: ReadonlyArray<{ le: number; count: number }>,
): { value: number; atLeast: number } | undefined {
  const total = buckets.at(-1)?.count ?? 0;
  if (total <= 0 || buckets.at(-1)?.le !== Infinity) return undefined;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const b of buckets) {
    if (b.count >= rank) {
      if (b.le === Infinity) return { value: lower, atLeast: lower };
      const inBucket = b.count - below;
      const value = inBucket > 0 ? lower + (b.le - lower) * ((rank - below) / inBucket) : b.le;
      return { value, atLeast: lower };
    }
    lower = b.le;
    below = b.count;
  }
  return undefined;
}
