// Every check, in the order a run takes them: critest's 24 by its numbering (8 in two),
// with the draft's clauses critest leaves out and nrictl's own beside the group they extend.
import type { Check } from '../check.js';
import { ADJUST_CHECKS } from './adjust.js';
import { CREATE_CONTAINER_CHECKS } from './create-container.js';
import { INVALID_CHECKS } from './invalid.js';
import { LIFECYCLE_CHECKS } from './lifecycle.js';
import { ORDERING_CHECKS } from './ordering.js';
import { RUN_POD_CHECKS } from './run-pod.js';
import { STOP_POD_CHECKS } from './stop-pod.js';
import { SYNC_CHECKS } from './sync.js';
import { TEARDOWN_CHECKS } from './teardown.js';
import { UPDATE_POD_CHECKS } from './update-pod.js';

export const CHECKS: readonly Check[] = Object.freeze([
  ...LIFECYCLE_CHECKS,
  ...RUN_POD_CHECKS,
  ...STOP_POD_CHECKS,
  ...TEARDOWN_CHECKS,
  ...CREATE_CONTAINER_CHECKS,
  ...ADJUST_CHECKS,
  ...INVALID_CHECKS,
  ...ORDERING_CHECKS,
  ...SYNC_CHECKS,
  ...UPDATE_POD_CHECKS,
]);
