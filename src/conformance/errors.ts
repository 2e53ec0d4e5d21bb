// How a check ends other than passing (thrown by a step, caught by the runner), and the
// one error the layer throws to its caller: bad input or a run that could not start.
import type { ErrorKind } from '../errors/index.js';
import type { KnownGap } from './model.js';

/** The runtime did not do what the clause says: "expected X, saw Y". */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
  constructor(
    readonly expected: string,
    readonly saw: string,
    /** Known upstream gaps this expectation is, for the runtimes they name. */
    readonly known: readonly KnownGap[] = [],
  ) {
    super(`expected ${expected}, saw ${saw}`);
  }
}

/** The check does not apply to this runtime or set-up, said before it judged anything. */
export class CheckSkip extends Error {
  override readonly name = 'CheckSkip';
}

/** The check could not be judged: a plugin stopped receiving, a call failed for a reason of its own. */
export class CheckError extends Error {
  override readonly name = 'CheckError';
}

export type ConformanceErrorCode =
  /** No CRI socket, one that is not CRI, no NRI, an image missing, a focus matching nothing, ... */
  | 'bad-input'
  /** The operator declined, or there was no terminal to ask on and no --yes. */
  | 'not-confirmed'
  | 'needs-yes'
  /** Stopped by a signal before anything was created. */
  | 'cancelled';

const KIND: Record<ConformanceErrorCode, ErrorKind> = {
  'bad-input': 'usage',
  'not-confirmed': 'failed',
  'needs-yes': 'usage',
  cancelled: 'failed',
};

export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
  readonly kind: ErrorKind;
  constructor(
    readonly code: ConformanceErrorCode,
    message: string,
    /** The option at fault, for the command line to name its flag. */
    readonly option?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.kind = KIND[code];
  }
}
