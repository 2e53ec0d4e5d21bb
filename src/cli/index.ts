// What only a command line needs: the base command, shared flags, signals, the spinner
// glue, and the one table from error kinds to exit codes.
export { BaseCommand, type BaseFlags, type BaseArgs } from './base-command.js';
export { type StopReason } from './signals.js';
export { PlanCommand, planFlags, containerArg, type SendablePlan } from './plan-command.js';
export { resourceFlags } from './resource-flags.js';
export { outputOrLegacyFileFlag, fileOf, type LegacyOutputFile } from './output-file-flag.js';
export { versionInfo } from './version.js';
export { UserError, usageError } from './errors.js';
export { ExitCode, findingsExitCode, type ExitCodeValue } from './exit-codes.js';
export { describeError, type ErrorOutcome } from './error-table.js';
export * from './flags.js';
export {
  checkJunit,
  presetsOutput,
  replayOptions,
  replayOutput,
  simFlags,
  simOptions,
  simOutputFlag,
  simPrompt,
  simSink,
  simStream,
  simulationOutput,
  type SimFlagValues,
} from './sim.js';
export { type ConnectProgress } from './progress.js';
export { example, type CommandExample } from './examples.js';
