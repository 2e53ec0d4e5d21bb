// What `plugin new` refuses or fails at: a bad name or --nrictl (exit 2), a directory in
// the way (2), a project it could not write or an nrictl it could not pack (1).
import type { ErrorKind } from '../errors/index.js';

export class ScaffoldError extends Error {
  constructor(
    message: string,
    readonly reason: 'bad-name' | 'bad-spec' | 'exists' | 'write' | 'pack',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ScaffoldError';
  }

  get kind(): ErrorKind {
    return this.reason === 'bad-name' || this.reason === 'bad-spec'
      ? 'usage'
      : this.reason === 'exists'
        ? 'conflict'
        : 'failed';
  }
}
