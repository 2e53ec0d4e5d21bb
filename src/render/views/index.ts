// How each command's typed result looks, in every format of the one output model
// (../output.ts). Views know the shapes of the library layers' results (type imports
// only) and build on render's primitives; they decide nothing about what happened.
export { findingsData, findingsText, summaryLine, sortedFindings, countedFindings } from './findings.js';
export { updateViews, evictionViews, formatDiff, type PlanViews } from './control.js';
export { bundleView } from './bundle.js';
export { projectView } from './project.js';
export { versionView, type VersionInfo } from './version.js';
export { pluginDirView } from './plugin-dir.js';
