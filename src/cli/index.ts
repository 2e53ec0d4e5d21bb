// What only a command line needs: the base command, shared flags, the spinner glue, and
// the one table from library errors to exit codes.
export { BaseCommand, applyColourPolicy, STOP_SIGNALS, type BaseFlags } from './base-command.js';
export { UserError, usageError } from './errors.js';
export { ExitCode, type ExitCodeValue } from './exit-codes.js';
export { describeError, isClosedOutput, type ErrorOutcome } from './error-table.js';
export * from './flags.js';
export { connectProgress, targetLabel, type ConnectProgress } from './progress.js';
