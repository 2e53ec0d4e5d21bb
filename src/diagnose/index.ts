// `nrictl doctor` below the command line: the node's offline checks, the runtime's answer
// and, on request, the plugins' latency, as one operation that gives back a Diagnosis.
export { diagnose, type DoctorDiagnosis } from './diagnose.js';
export type { DiagnoseOptions } from './options.js';
export type {
  ViewsComparison,
  ViewsCompared,
  ViewsNotChecked,
  ViewDifference,
  DifferenceReason,
} from './compare-views.js';
export { DropHistory, DROP_WINDOW_MS } from './drop-window.js';
export {
  listPlugins,
  type PluginsOptions,
  type PluginsReport,
  type ExternalConnection,
  type PeerProcess,
  type ProbeReport,
} from './plugins.js';
export type { ListedPlugin, ListedState } from './listed-plugin.js';
