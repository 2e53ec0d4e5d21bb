export { finding, type Finding, type Severity, type FindingCounts, type RuntimeKind } from './finding.js';
export { CheckPathError } from './errors.js';
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
  CONFIG_SIZE_MAX,
  type ConfDirOptions,
  type ConfDirReport,
  type ConfFileUse,
} from './conf-dir.js';
export { lookupPluginConfig, DEFAULT_PLUGIN_CONFIG_PATH, type ConfigLookup } from './config-lookup.js';
export { checkSocket, socketExposureFindings, type SocketCheckOptions } from './socket.js';
export {
  lintRuntimeConfig,
  lintRuntimeConfigs,
  findRuntimeConfigs,
  UnknownConfigFormatError,
  findDockerd,
  DEFAULT_CRI_SOCKETS,
  type NriSettings,
  type RuntimeConfigReport,
} from './runtime-config/index.js';
export {
  diagnoseNode,
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
  notText,
  specialFileProblem,
  InputFileError,
  INPUT_LIMITS,
  type InputFileProblem,
  type ReadInputOptions,
} from './input-file.js';
export { parseInputDocument, InputDocumentError, MAX_NESTING } from './input-document.js';
export { type DefaultValidatorSettings } from './runtime-config/validator.js';
export { validatorOnNode, type ConnectedPlugins } from './validator-doctor.js';
