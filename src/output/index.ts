// The output layer: the machinery every layer may use to put bytes out. The one output
// model (a value and its View, drawn as table, wide, json, yaml or name), documents and
// stream items, colour, one width policy and prose fitted to it, aligned columns, the
// words for NRI values, and the ways out that never make the runtime wait (a bounded
// queue, a non-blocking stdout, atomic files, the metrics server). It names no library
// type above it (the views, src/views, do), reads NRI types but does not load the
// protobuf module, and speaks no protocol.
export { chalk, severityColour, withoutColourEach, type Severity } from './colour.js';
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
} from './model.js';
export { toPlain, jsonDocument, documentChunks, wireJsonChunks, type DataFormat, type MessageType } from './format.js';
export { OUTPUT_CLOSED, outputClosed, discardingSink, type RecordSink, type Note, type NoteView } from './stream.js';
export {
  containerStateName,
  containerResources,
  oneWord,
  optionalValue,
  podDisplayName,
  requestedResources,
  resourceFields,
  summariseResources,
  type ContainerStateName,
  type Pod,
  type Container,
  type Resources,
  type ResourceSummary,
} from './nri-values.js';
export { writeFileAtomic, AtomicWriteError, type AtomicContent } from './atomic-write.js';
export { BoundedOutputQueue, defaultDropNotice, type BoundedQueueOptions } from './bounded-queue.js';
export { outputFilePath, OutputFileError } from './output-file.js';
export { outputColumns } from './width.js';
export { xmlText } from './xml.js';
export { fitProse, fitSpans, wrapText, wrapWords } from './wrap.js';
export { alignColumns, alignedWidth, alignRow, columnWidths, visibleLength } from './columns.js';
export { spinner, inCI, type Spinner } from './spinner.js';
export { nonBlockingStdout } from './stdout.js';
export { serveMetrics, MetricsAddressError, type MetricsServer } from './metrics-server.js';
