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
export { PluginError, type PluginErrorReason, type PluginStep, type Endpoint } from './errors.js';
export {
  DEFAULT_SOCKET_PATH,
  PLUGIN_SOCKET_ENV,
  PLUGIN_NAME_ENV,
  PLUGIN_IDX_ENV,
  connectTo,
  resolveTarget,
  endpointOf,
  type ConnectTarget,
} from './connect.js';
export { pluginIdentity, SDK_NRI_VERSION, type PluginIdentity } from './identity.js';
export { registerPluginService, eventMethods, type PluginServiceImpl, type MethodImpl } from './plugin-service.js';
