// What `nrictl logs` and `nrictl sync dump` do above the session: filter pods and
// containers, note events on the reply path and push them into the caller's sink.
export { ObjectFilter, FilterError, type FilterSpec } from './filters.js';
export { type LoggedEvent, type EventLogCounts } from './event-log.js';
export {
  watchEvents,
  DEFAULT_LOG_QUEUE_CAPACITY,
  type LogStreamOptions,
  type LogSummary,
  type LogEnd,
  type LogNote,
  type LogResult,
} from './log-stream.js';
export { dumpState, type DumpOptions, type RuntimeState } from './dump.js';
export { LogMetrics, type LogCountSources } from './metrics.js';
