// The port of containerd/nri pkg/adaptation: what the simulated runtime (../sim) builds
// on. Nothing here knows scenarios, the simulated state or the command line.
export {
  Adaptation,
  RuntimeError,
  type AdaptationHost,
  type AdaptationOptions,
  type Merged,
  type PluginInfo,
} from './adaptation.js';
export { PluginConnectionError, type PluginFailure } from './plugin.js';
export { LaunchError } from './plugin-launch.js';
export { ListenError, listenForPlugins, closeListener, type Listening } from './adaptation-listen.js';
export { discoverPlugins, type DiscoveredPlugin } from './adaptation-discover.js';
export { type CollectedResult } from './result.js';
export { ConflictError, DiscoveryError, MergeError, PreStartFailedError } from './errors.js';
export {
  runtimeVintage,
  NEWEST_NRI_VERSION,
  CRIO_133_NRI_VERSION,
  VintageError,
  type RuntimeVintage,
} from './vintage.js';
export { goQuote } from './go-text.js';
export { GO_DEADLINE_SLACK_MS, GO_LATE_ANSWERS, NO_LATE_ANSWERS } from './late-answers.js';
export { ValidationRejectedError, ValidatorFailedError } from './validate.js';
