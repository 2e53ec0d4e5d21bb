// A transient-plugin session against a runtime socket or the embedded simulator:
// connect, register, take the state, call, close; with deadlines, reconnect and the
// socket check. Every connecting command goes through here.
export { SessionError, type SessionErrorCode } from './errors.js';
export { checkIdentity } from './identity.js';
export { untilAborted, Aborted } from './deadline.js';
export {
  openEndpoint,
  isEndpoint,
  simPreset,
  type Endpoint,
  type SessionTarget,
  type EmbeddedRuntime,
} from './endpoint.js';
export {
  Session,
  fetchState,
  fetchStatePayloads,
  type SessionOptions,
  type SessionState,
  type SessionPhase,
  type LifecycleSighting,
} from './session.js';
export { ProbeSet, type ProbeSetOptions, type ProbeSpec, type ProbeInfo } from './probes.js';
export { probeRuntime, type ProbeOutcome } from './probe.js';
export { sessionNotes, type SessionNote } from './notes.js';
export { EventWatch, DEFAULT_BACKOFF, type Backoff, type WatchOptions, type WatchNotice } from './watch.js';
export type { RuntimeInfo, PluginHandlers } from '../plugin/index.js';
export {
  scrapeMetrics,
  metricsUrl,
  nriMetrics,
  parseExposition,
  quantile,
  ExpositionError,
  RuntimeMetricsError,
  type NriMetrics,
  type PluginMetrics,
  type OperationMetrics,
  type PluginState,
  type MetricsErrorCode,
} from './runtime-metrics/index.js';
