// `nrictl update` and `nrictl evict` below the command line: find the container, turn
// flags into an NRI ContainerUpdate (or ContainerEviction), plan, send, verify.
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
  verifyResources,
  fieldsOf,
  type FieldChange,
  type ResourceField,
  type Verification,
} from './diff.js';
export { updateRequest, evictionRequest, requestData } from './request.js';
export { verifyUpdate, containerStillListed, type VerifyResult, type Reconnect } from './verify.js';
export { ControlPlan, type ControlAction, type ControlTarget, type PlannedContainer } from './plan.js';
export { planUpdate, UpdatePlan, type UpdateChange, type UpdateOutcome } from './update-plan.js';
export { planEviction, EvictionPlan, type EvictionAfterwards, type EvictionOutcome } from './eviction-plan.js';
