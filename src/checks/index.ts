export {
  finding,
  sortFindings,
  countFindings,
  type Finding,
  type Severity,
  type FindingCounts,
  type RuntimeKind,
} from './finding.js';
export { CheckPathError, isMissing } from './errors.js';
export {
  checkPluginDir,
  listDiscoverable,
  DEFAULT_PLUGIN_PATH,
  type PluginDirOptions,
  type PluginDirReport,
  type PlannedPlugin,
} from './plugin-dir.js';
export { validatePluginDir, type ValidateOptions } from './validate.js';
export {
  checkConfDir,
  confDirMissing,
  CONFIG_SIZE_MAX,
  type ConfDirOptions,
  type ConfDirReport,
  type ConfFileUse,
} from './conf-dir.js';
export { lookupPluginConfig, DEFAULT_PLUGIN_CONFIG_PATH, type ConfigLookup } from './config-lookup.js';
export {
  checkSocket,
  socketExposureFindings,
  SOCKET_EXPOSURE_CODES,
  DEFAULT_SOCKET_PATH,
  type SocketCheckOptions,
} from './socket.js';
export {
  lintRuntimeConfig,
  lintRuntimeConfigs,
  findRuntimeConfigs,
  detectFormat,
  UnknownConfigFormatError,
  RUNTIME_CONFIG_LOCATIONS,
  type NriSettings,
  type RuntimeConfigReport,
} from './runtime-config/index.js';
export { runningAsRoot } from './permissions.js';
export {
  diagnoseNode,
  connectionFindings,
  doctorVerdict,
  type DoctorOptions,
  type DoctorPaths,
  type OfflineDiagnosis,
  type ConnectionOutcome,
  type Verdict,
  type VerdictStatus,
} from './doctor.js';
export { concludeDiagnosis, latencyUnmeasured, checkNodeRoot, type Diagnosis } from './diagnosis.js';
export { lintPaths, type LintOptions, type LintReport } from './lint.js';
export {
  readInputFile,
  readInputBytes,
  notText,
  specialFileProblem,
  formatLimit,
  InputFileError,
  INPUT_LIMITS,
  type InputFileProblem,
  type ReadInputOptions,
} from './input-file.js';
export { parseInputDocument, nestingProblem, InputDocumentError, MAX_NESTING } from './input-document.js';
export { type DefaultValidatorSettings } from './runtime-config/validator.js';
