// The runtime side of NRI: the simulator behind `nrictl sim` and every test's peer. Two
// parts: adaptation/, the port of containerd/nri pkg/adaptation, and sim/, the simulated
// container runtime that embeds it (state, scenarios, scripts, presets). This file is the
// layer's surface; other layers import only from here.
export {
  RuntimeError,
  PluginConnectionError,
  LaunchError,
  ListenError,
  ConflictError,
  DiscoveryError,
  MergeError,
  VintageError,
  ValidationRejectedError,
  ValidatorFailedError,
  type AdaptationHost,
  type AdaptationOptions,
  type PluginInfo,
  type PluginFailure,
  type DiscoveredPlugin,
  type CollectedResult,
  type RuntimeVintage,
  runtimeVintage,
} from './adaptation/index.js';
export { Runtime, type RuntimeOptions, type CreateResult } from './sim/runtime.js';
export { type SimEvent, type SimEventType, type UpdateSource } from './events.js';
export { runScript, stepLabel, sleep, type ScriptResult, type Steps } from './sim/script.js';
export {
  runSimulation,
  type SimulationOptions,
  type SimulationResult,
  type SimulationRecord,
  type ScriptDone,
} from './sim/run.js';
export { runSimulationPerPreset, type PresetRecord, type PresetResult, type PresetsResult } from './sim/run-presets.js';
export { SimulationInputError, type ScenarioSource } from './sim/inputs.js';
export { startEmbeddedSimulator, type EmbeddedSimulator } from './sim/embedded.js';
export { SimState, type PodSandbox, type Container } from './sim/state.js';
export { parseScenario, parseScenarioResources, type Scenario, type Step } from './sim/scenario.js';
export { generateScenario, type GenerateOptions } from './sim/generate.js';
export { type UpdateOutcome } from './sim/apply.js';
export { ScenarioError, StateError } from './sim/errors.js';
export { RuntimeStartError } from './sim/start-failure.js';
export { RUNTIME_PRESETS, RELEASE_PRESETS, type RuntimePreset, type RuntimeQuirks } from './sim/presets.js';
export { presetForRuntime } from './sim/preset-match.js';
export { SIM_FAULTS, type SimFault } from './sim/faults.js';
