// What `nrictl trace` does, below the command line: probe placement, correlation of one
// event across probes, attribution, latency statistics, metrics.
export {
  planProbes,
  parseIndexList,
  pluginLabel,
  segmentOf,
  PlacementError,
  type InstalledPlugin,
  type ProbePlan,
  type ProbeMode,
  type Segment,
} from './placement.js';
export { createView, updateView, diffViews, type Change, type ContainerView } from './view.js';
export { ownerOf, ownerIndex } from './owners.js';
export {
  Tracer,
  type Observation,
  type TraceRecord,
  type SegmentResult,
  type AttributedChange,
  type TraceEnd,
  type TracerOptions,
} from './tracer.js';
export { LatencyStats, percentile, type LatencyRow, type TraceSummary } from './stats.js';
export {
  TraceSession,
  DEFAULT_TRACE_EVENTS,
  TRACEABLE_EVENTS,
  DEFAULT_TRACE_QUEUE_CAPACITY,
  type TraceSessionOptions,
} from './session.js';
export { TraceMetrics, LATENCY_BUCKETS } from './metrics.js';
// The /metrics server lives in render, shared with logs; re-exported for trace's callers.
export { serveMetrics, parseMetricsAddress, MetricsAddressError, type MetricsServer } from '../render/index.js';
export { readNodeFacts, mergeInstalled, pluginsFromRuntimeMetrics, type NodeFacts } from './installed.js';
export {
  runTrace,
  installedPlugins,
  type TraceRunOptions,
  type TraceResult,
  type TraceNote,
  type TraceEndReason,
  type SimulatedRuntime,
} from './run.js';
export { checkTraceable } from './events.js';
export { tracePluginLatency, latencyFindings, DOCTOR_TRACE_MS, type DoctorTraceOptions } from './doctor-finding.js';
