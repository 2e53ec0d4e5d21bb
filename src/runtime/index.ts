// The runtime side of NRI: the simulator behind `nrictl sim` and every test's peer.
export {
  Runtime,
  RuntimeError,
  DEFAULT_REGISTRATION_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  SIMULATED_NRI_VERSION,
  type RuntimeOptions,
  type PluginInfo,
  type CreateResult,
} from './runtime.js';
export { PluginConnection, PluginConnectionError, type PluginFailure } from './plugin-connection.js';
export { type SimEvent, type SimEventType, type UpdateSource } from './events.js';
export { runScript, runStep, type ScriptResult } from './script.js';
export { parseCommand, executeCommand, CommandError, INTERACTIVE_HELP, type Command } from './interactive.js';
export { runCommandLoop, type CommandLoopOptions } from './command-loop.js';
export { startEmbeddedSimulator, type EmbeddedSimulator } from './embedded.js';
export { ListenError } from './listener.js';
export { LaunchError } from './launcher.js';
export { SimState, type PodSandbox, type Container } from './state.js';
export {
  loadScenario,
  parseScenario,
  parseScenarioResources,
  STEP_KINDS,
  type Scenario,
  type Step,
} from './scenario.js';
export { generateScenario, type GenerateOptions } from './generate.js';
export { discoverPlugins, readPluginConfig, type DiscoveredPlugin } from './discovery.js';
export { ResultCollector, type CollectedResult } from './merge.js';
export { applyAdjustment, applyUpdates, type UpdateOutcome } from './apply.js';
export { ConflictError, DiscoveryError, MergeError, ScenarioError, StateError } from './errors.js';
export { runtimeVintage, NEWEST_NRI_VERSION, VintageError, type RuntimeVintage } from './vintage.js';
export { RUNTIME_PRESETS, type RuntimePreset, type RuntimeQuirks } from './presets.js';
export { ValidationRejectedError, ValidatorFailedError } from './validation.js';
