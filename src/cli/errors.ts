import { ExitCode, type ExitCodeValue } from './exit-codes.js';

/**
 * An error meant for the user: one line that names the thing and the fix, and the
 * exit code it maps to. Library layers throw their own typed errors; commands (or
 * toUserError below) turn them into this.
 */
export class UserError extends Error {
  readonly exitCode: ExitCodeValue;
  constructor(message: string, exitCode: ExitCodeValue = ExitCode.FAILED, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UserError';
    this.exitCode = exitCode;
  }
}

export function usageError(message: string): UserError {
  return new UserError(message, ExitCode.USAGE);
}
