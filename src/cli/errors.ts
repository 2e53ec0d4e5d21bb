import type { ErrorKind } from '../errors/index.js';

/**
 * An error only the command line can judge (a missing --reason, a --root that is not a
 * directory): one line that names the thing and the fix, and its kind. Library layers
 * throw their own errors, each with a kind; src/cli/error-table.ts maps kinds to exit codes.
 */
export class UserError extends Error {
  override readonly name = 'UserError';
  constructor(
    message: string,
    readonly kind: ErrorKind = 'failed',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function usageError(message: string): UserError {
  return new UserError(message, 'usage');
}
