// `nrictl exporter`: a node's NRI health as Prometheus metrics (docs/exporter.md), from
// one long-lived registration with the runtime and a re-read of the node every interval.
export { runExporter, type ExporterOptions, type ExporterNote, type ExporterResult } from './exporter.js';
export type { ExporterErrorKind, PluginStateName } from './reading.js';
