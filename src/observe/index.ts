// What `nrictl logs` and `nrictl sync dump` do above the session: filter pods and
// containers, note events on the reply path, render them later.
export { ObjectFilter, FilterError, globMatcher, parseLabel, type FilterSpec } from './filters.js';
export { EventLog, type LoggedEvent, type EventLogCounts } from './event-log.js';
export { renderLoggedEvent, loggedEventObject, type LogFormat } from './render-event.js';
export {
  LogStream,
  formatLogSummary,
  DEFAULT_LOG_QUEUE_CAPACITY,
  DEFAULT_LOG_EVENTS,
  type LogStreamOptions,
  type LogSummary,
  type LogEnd,
} from './log-stream.js';
export { LogMetrics, type LogCountSources } from './metrics.js';
