// What `nrictl trace` does, below the command line: probe placement, correlation of one
// event across probes, attribution, latency statistics, metrics.
export {
  planProbes,
  parseIndexList,
  PlacementError,
  type InstalledPlugin,
  type ProbePlan,
  type ProbeMode,
  type Segment,
} from './placement.js';
export { type Change, type ContainerView } from './view.js';
export {
  type Observation,
  type TraceRecord,
  type SegmentResult,
  type AttributedChange,
  type TraceEnd,
  type TracerOptions,
} from './tracer.js';
export { type LatencyRow, type TraceSummary } from './stats.js';
export { TraceSession, DEFAULT_TRACE_QUEUE_CAPACITY, type TraceSessionOptions } from './session.js';
// The /metrics server lives in render, shared with logs; re-exported for trace's callers.
export { type MetricsServer } from '../output/index.js';
export { mergeInstalled, pluginsFromRuntimeMetrics, type NodeFacts } from './installed.js';
export {
  runTrace,
  type TraceRunOptions,
  type TraceResult,
  type TraceNote,
  type TraceEndReason,
  type SimulatedRuntime,
} from './run.js';
export { checkTraceable } from './events.js';
export { tracePluginLatency, latencyFindings, type DoctorTraceOptions } from './doctor-finding.js';
