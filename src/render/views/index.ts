// How each command's typed result looks, in every format of the one output model
// (../output.ts). Views know the shapes of the library layers' results (type imports
// only) and build on render's primitives; they decide nothing about what happened.
export { findingsData, findingsText, summaryLine, sortedFindings, countedFindings } from './findings.js';
// The simulator's stream and its end (`nrictl sim`), and the expectations' reports.
export { simulationView, simulationJunitView, simulationRecords } from './simulation.js';
export { textReport, junitReport } from './expectations.js';
export { pluginDirView } from './plugin-dir.js';
