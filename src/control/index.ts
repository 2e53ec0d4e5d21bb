// `nrictl update` and `nrictl evict` below the command line: find the container, turn
// flags into an NRI ContainerUpdate (or ContainerEviction), plan, send, verify.
export {
  ControlInputError,
  ContainerLookupError,
  ControlError,
  type ControlErrorCode,
  type ContainerCandidate,
} from './errors.js';
export { resolveContainer, type ResolvedContainer } from './resolve.js';
export {
  parseResourceFlags,
  buildLinuxResources,
  unitWarnings,
  type ResourceFlagValues,
  type ResourceChange,
} from './resource-flags.js';
export { diffResources, verifyResources, type FieldChange, type Verification } from './diff.js';
export type { VerifyResult } from './verify.js';
export { ControlPlan, type ControlAction, type ControlTarget, type PlannedContainer } from './plan.js';
export { planUpdate, UpdatePlan, type UpdateChange, type UpdateOutcome } from './update-plan.js';
export { planEviction, EvictionPlan, type EvictionAfterwards, type EvictionOutcome } from './eviction-plan.js';
