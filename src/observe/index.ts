// What `nrictl logs` and `nrictl sync dump` do, below the command line: watch the
// runtime's events as a transient plugin, and take its Synchronize state.
export { ObjectFilter, FilterError, globMatcher, parseLabel, type FilterSpec } from './filters.js';
export { EventLog, type LoggedEvent, type EventLogCounts } from './event-log.js';
export { renderLoggedEvent, loggedEventObject, type LogFormat } from './render-event.js';
export { LogStream, formatLogSummary, DEFAULT_LOG_QUEUE_CAPACITY, type LogStreamOptions, type LogSummary } from './log-stream.js';
export { fetchSyncState, openSyncConnection, type SyncConnection, type SyncState, type SyncStateOptions } from './sync-state.js';
export { toUserError, SIM_HINT } from './user-errors.js';
