// The plugin SDK: connect to a runtime's NRI socket (or the fd it passed), register,
// subscribe to the events the handlers serve, and talk back with UpdateContainers.
export { Stub, DEFAULT_REQUEST_TIMEOUT_MS, type StubOptions, type RuntimeInfo, type UpdateOptions } from './stub.js';
export {
  type PluginHandlers,
  type ConfigureResult,
  type CreateContainerResult,
  type ValidationResult,
  EVENT_HANDLER_NAMES,
  handledEventsMask,
  subscriptionMask,
  type SubscriptionInput,
} from './handlers.js';
export {
  log,
  openPluginLog,
  chooseLogDestination,
  type PluginLog,
  type PluginLogOptions,
  type LogDestination,
} from './log.js';
export { PluginError, type PluginErrorReason, type PluginStep, type Endpoint, type LateAnswer } from './errors.js';
export {
  DEFAULT_SOCKET_PATH,
  PLUGIN_SOCKET_ENV,
  PLUGIN_NAME_ENV,
  PLUGIN_IDX_ENV,
  connectTo,
  resolveTarget,
  socketPathFromArgs,
  endpointOf,
  type ConnectTarget,
} from './connect.js';
export { pluginIdentity, SDK_NRI_VERSION, type PluginIdentity } from './identity.js';
export { registerPluginService, eventMethods, type PluginServiceImpl, type MethodImpl } from './plugin-service.js';
// What a plugin author needs besides the stub, so that `nrictl/plugin` is the one import:
// the generated API types and the Optional* helpers (read with getOptional*, build with optional*).
export { nri } from '../api/index.js';
export {
  PLUGIN_LOG_ENV,
  PLUGIN_LOG_DIR_ENV,
  JOURNAL_SOCKET_ENV,
  DEFAULT_PLUGIN_LOG_DIR,
  DEFAULT_JOURNAL_SOCKET,
  LOG_FILE_MAX_BYTES,
} from '../api/index.js';
export {
  getOptionalString,
  getOptionalInt,
  getOptionalInt32,
  getOptionalInt64,
  getOptionalUInt32,
  getOptionalUInt64,
  getOptionalBool,
  getOptionalFileMode,
  getOptionalRepeatedString,
  optionalString,
  optionalBool,
  optionalRepeatedString,
  optionalInt,
  optionalInt32,
  optionalInt64,
  optionalUInt32,
  optionalUInt64,
  optionalFileMode,
} from '../api/index.js';
export { Event, EVENT_NAMES, eventMask } from '../api/index.js';
