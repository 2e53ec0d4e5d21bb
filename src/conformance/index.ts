// `nrictl conformance`: the NRI contract as data (checks/), run through the runtime's CRI
// socket with transient test plugins on its NRI socket, on a node (ConformancePlan) or on
// the simulator (runOnSimulator, runMatrix). It produces verdicts; src/views draws them.
export { CHECKS } from './checks/index.js';
export { ConformanceError, type ConformanceErrorCode } from './errors.js';
export { ConformancePlan, type PlanOptions } from './plan.js';
export {
  runOnSimulator,
  runMatrix,
  type SimConformanceOptions,
  type ConformanceMatrix,
  type PresetColumn,
} from './sim.js';
export type { Check } from './check.js';
export type {
  CheckVerdict,
  ConformanceReport,
  ConformanceSummary,
  KnownGap,
  Leftover,
  TargetInfo,
  VerdictStatus,
  TimeSplit,
} from './model.js';
