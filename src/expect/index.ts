// Expectations for `nrictl sim --expect`: parse the file, run the steps, judge, report.
export {
  ExpectationError,
  loadExpectations,
  parseExpectations,
  type Expectation,
  type ExpectationFile,
} from './file.js';
export { judge, judgePluginFailures, flatten, type Outcome, type StepRecord } from './check.js';
export { runExpectations, placeExpectations, stepLabel } from './run.js';
export { textReport, junitReport } from './report.js';
