// Units people type and read: byte quantities (512Mi), cpusets (0-3,8), durations (2s)
// and counted nouns (1 check). Pure functions over strings and numbers; imports nothing, so that any layer
// (and a command's flag parsing) can use it without loading anything else.
export { formatBytes, parseQuantity, QuantityError } from './quantity.js';
export { parseCpuset, formatCpuset, canonicalCpuset, describeCpuset, CpusetError } from './cpuset.js';
export {
  parseDuration,
  formatDuration,
  DurationError,
  TIMER_MAX_MS,
  GO_DURATION_MAX_MS,
  type DurationRules,
} from './duration.js';
export { excerpt, excerptKey, excerptPath } from './excerpt.js';
export { plural } from './plural.js';
