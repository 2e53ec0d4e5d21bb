// Recordings of a node's NRI traffic: the format (docs/recording.md), the writer that
// logs and trace feed without making the runtime wait, and the reader a replay reads
// back, line by line.
export {
  REDACTED,
  type HeaderLine,
  type EventLine,
  type TraceLine,
  type EndLine,
  type SegmentLine,
  type RecordingSource,
} from './format.js';
export { RecordingError, recordingFailed } from './errors.js';
export { RECORDING_MODE } from './file-out.js';
export {
  RecordingWriter,
  traceLine,
  type RecordingOptions,
  type RecordingStart,
  type RecordingSummary,
  type RecordingNote,
  type TracedEvent,
  type StateSelection,
} from './writer.js';
export { eventByName } from './messages.js';
export {
  openRecording,
  checkRecording,
  type Recording,
  type RecordingEntry,
  type RecordingInfo,
  type RecordingCheck,
  type UnknownFields,
} from './reader.js';
