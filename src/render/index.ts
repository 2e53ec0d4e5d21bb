// The output layer: turns plain objects and NRI messages into text for people
// (tables, event lines, colours) and for programs (JSON, YAML), and gets it out
// without ever making the runtime wait (bounded queue, atomic files). It reads
// NRI types but does not load the protobuf module, and speaks no protocol.
export { chalk, shortId, withoutColourEach, type Severity } from './colour.js';
export { writeChunks, batched, type Chunk } from './chunk-writer.js';
export {
  output,
  formatsOf,
  renderOutput,
  renderChunks,
  renderRecord,
  type Output,
  type OutputFormat,
  type View,
  type RecordView,
  type Layout,
} from './output.js';
export { toPlain, jsonDocument, type DataFormat, type MessageType } from './format.js';
export { type StateTableOptions } from './state-table.js';
export { OUTPUT_CLOSED, outputClosed, discardingSink, type RecordSink, type Note, type NoteView } from './stream.js';
export {
  containerStateName,
  optionalValue,
  summariseResources,
  type Pod,
  type Container,
  type Resources,
  type ResourceSummary,
} from './nri-view.js';
export { writeFileAtomic, AtomicWriteError, type AtomicContent } from './atomic-write.js';
export { BoundedOutputQueue, defaultDropNotice, type BoundedQueueOptions } from './bounded-queue.js';
export { requestedResources } from './nri-view.js';
export { outputFilePath, OutputFileError } from './output-file.js';
export { type FindingRow, type FindingsLayoutOptions } from './findings-layout.js';
export { outputColumns } from './output-width.js';
export { alignColumns } from './columns.js';
export { spinner, inCI, type Spinner } from './spinner.js';
export { nonBlockingStdout } from './output-sink.js';
export { serveMetrics, MetricsAddressError, type MetricsServer } from './metrics-server.js';
export * from './views/index.js';
