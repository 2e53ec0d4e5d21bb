// How each command's typed result looks, in every format of the one output model
// (src/output). Views know the shapes of the library layers' results (type imports
// only) and build on the output layer's machinery; they decide nothing about what happened.
// The one event renderer, shared by logs' lines, trace's blocks and the simulator's lines.
export { type EventRecord, type EventName } from './events.js';
export { logEventView, logNoteView, logSummaryView, loggedEventData } from './logs.js';
export { traceRecordView, traceSummaryView, traceNoteView } from './trace.js';
export { runtimeStateView } from './runtime-state.js';
export { sessionNote } from './session-notes.js';
// The simulator's lines; its data form (sim-event-data.ts) loads the protobuf bindings
// and is imported directly by the simulator's command, not through this index.
export { formatSimEvent } from './sim-event-line.js';
export { countedFindings } from './findings.js';
export { updateViews, evictionViews, formatDiff, type PlanViews } from './control.js';
export { bundleView } from './bundle.js';
export { projectView } from './project.js';
export { versionView, type VersionInfo } from './version.js';
// The simulator's stream and its end (`nrictl sim`), and the expectations' reports.
export { simulationView, simulationJunitView, simulationRecords } from './simulation.js';
export { presetRecords, presetsView } from './simulation-presets.js';
// A recording replayed (`nrictl sim --replay`), and what would change (--compare).
export { replayView, replayJunitView } from './replay.js';
export { compareView, compareJunit } from './replay-compare.js';
export { pluginDirView } from './plugin-dir.js';
export { lintView } from './lint-report.js';
export { diagnosisView } from './diagnosis.js';
export { pluginsView } from './plugins.js';
// `nrictl conformance`: one run's verdicts, the matrix of --preset all, and JUnit XML of either.
export { conformanceView, targetText } from './conformance.js';
export { conformanceMatrixView } from './conformance-matrix.js';
export { conformanceJunit, conformanceMatrixJunit } from './conformance-junit.js';
// `nrictl exporter`: its notes while it runs and the line it ends with.
export { exporterNoteView, exporterView } from './exporter.js';
// `nrictl fleet`: a row per node, from Prometheus.
export { fleetView } from './fleet.js';
