import { ExitCode, type ExitCodeValue } from './exit-codes.js';

/**
 * An error only the command line can judge (a missing --reason, a --root that is not a
 * directory): one line that names the thing and the fix, and its exit code. Library
 * layers throw their own typed errors, which src/cli/error-table.ts maps.
 */
export class UserError extends Error {
  override readonly name = 'UserError';
  readonly exitCode: ExitCodeValue;
  constructor(message: string, exitCode: ExitCodeValue = ExitCode.FAILED, options?: { cause?: unknown }) {
    super(message, options);
    this.exitCode = exitCode;
  }
}

export function usageError(message: string): UserError {
  return new UserError(message, ExitCode.USAGE);
}
