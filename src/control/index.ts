// `nrictl update` and `nrictl evict` below the command line: find the container, turn
// flags into an NRI ContainerUpdate (or ContainerEviction), preview, send, verify.
export {
  ControlInputError,
  ContainerLookupError,
  ControlError,
  type ControlErrorCode,
  type ContainerCandidate,
} from './errors.js';
export { resolveContainer, listContainers, containerName, containerLabel, type ResolvedContainer } from './resolve.js';
export {
  parseResourceFlags,
  buildLinuxResources,
  isEmptyChange,
  unitWarnings,
  describeCpuLimit,
  RESOURCE_FLAG_NAMES,
  DEFAULT_CPU_PERIOD,
  CPU_PERIOD_MIN,
  CPU_PERIOD_MAX,
  type ResourceFlagValues,
  type ResourceChange,
} from './resource-flags.js';
export {
  diffResources,
  formatDiff,
  verifyResources,
  fieldsOf,
  type FieldChange,
  type ResourceField,
  type Verification,
} from './diff.js';
export { updateRequest, evictionRequest, requestData } from './request.js';
export { verifyUpdate, containerStillListed, type VerifyResult, type Reconnect } from './verify.js';
export { openTarget, type Target, type TargetOptions } from './target.js';
export { canPrompt, pickContainer, confirmSend } from './prompts.js';
export { sendToContainer, targetHeading, type ContainerRequest, type SendOptions, type Sent } from './send.js';
