// Expectations for `nrictl sim --expect`: parse the file, place each after its step and
// judge it. Nothing here runs the simulator (src/runtime/sim does, with these) or draws
// the outcomes (src/views/expectations.ts does).
export {
  ExpectationError,
  loadExpectations,
  parseExpectations,
  type Expectation,
  type ExpectationFile,
} from './file.js';
export { judge, judgePluginFailures, type Outcome, type StepRecord } from './check.js';
export { placeExpectations } from './place.js';
