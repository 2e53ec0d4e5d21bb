// The one error type of the session layer. `code` says what went wrong in words a
// caller can branch on; src/cli/error-table.ts maps each code to an exit status.
// Messages are one line that names the socket (or the simulator) and what to do.

import type { ErrorKind } from '../errors/index.js';
export type SessionErrorCode =
  /** --plugin-name / --plugin-index break the runtime's rules: nothing was dialled. */
  | 'bad-identity'
  /** --sim: the scenario file cannot be loaded. */
  | 'bad-scenario'
  /** Nothing listens there, or we may not connect. */
  | 'no-socket'
  | 'permission-denied'
  | 'not-a-socket'
  | 'refused'
  /** The socket path is longer than a unix socket path can be (107 bytes): nothing was dialled. */
  | 'path-too-long'
  /** The runtime refused the registration, or it did not complete in time. */
  | 'registration-rejected'
  | 'registration-timeout'
  /** None of the events asked for is known to this runtime. */
  | 'no-events'
  /** The runtime closed the connection (before or after registration, see `registered`). */
  | 'runtime-gone'
  /** The runtime registered us, then did not answer a call within the deadline. */
  | 'call-timeout'
  /** The peer sent bytes nrictl cannot read: nrictl dropped the connection. */
  | 'malformed-frame'
  /** The runtime answered UpdateContainers with an error, or reported the update failed. */
  | 'update-refused'
  /** Stopped by the caller (a signal) while connecting. */
  | 'cancelled';

export class SessionError extends Error {
  override readonly name = 'SessionError';
  constructor(
    readonly code: SessionErrorCode,
    message: string,
    readonly details: { socketPath?: string | undefined; registered?: boolean; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }

  get kind(): ErrorKind {
    return SESSION_ERROR_KIND[this.code];
  }
}

const SESSION_ERROR_KIND: Record<SessionErrorCode, ErrorKind> = {
  'bad-identity': 'usage',
  'bad-scenario': 'usage',
  'no-socket': 'connect',
  'permission-denied': 'connect',
  'not-a-socket': 'connect',
  refused: 'connect',
  'path-too-long': 'usage',
  'registration-rejected': 'registration',
  'registration-timeout': 'registration',
  'no-events': 'registration',
  'runtime-gone': 'runtime-gone',
  'call-timeout': 'timeout',
  'malformed-frame': 'runtime-gone',
  'update-refused': 'refused',
  cancelled: 'failed',
};

/** "To try nrictl without a runtime": added where the socket is missing. */
export const SIM_HINT = 'To try nrictl without a runtime: --sim demo';
