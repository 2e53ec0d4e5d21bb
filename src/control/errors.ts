// The errors of `nrictl update` / `nrictl evict` below the command line. Each names the
// flag or the container query involved, so a command can print its message as it is.

import type { ErrorKind } from '../errors/index.js';
/** A flag value that cannot be sent: judged before anything connects. */
export class ControlInputError extends Error {
  override readonly name = 'ControlInputError';
  readonly kind: ErrorKind = 'usage';
  constructor(
    /** "--cpus", "--memory", ...; empty when no single flag is to blame. */
    readonly flag: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ContainerCandidate {
  id: string;
  /** "namespace/pod/container". */
  name: string;
}

/** A container argument that names no container, or several. */
export class ContainerLookupError extends Error {
  override readonly name = 'ContainerLookupError';
  get kind(): ErrorKind {
    return this.reason === 'unknown' ? 'not-found' : 'usage';
  }
  constructor(
    readonly reason: 'unknown' | 'ambiguous',
    readonly query: string,
    readonly candidates: ContainerCandidate[],
    message: string,
  ) {
    super(message);
  }
}

export type ControlErrorCode =
  /** No container named and no terminal to pick one on. */
  | 'no-container'
  /** Something needs confirmation and there is no terminal to ask on (and no --yes). */
  | 'needs-yes'
  /** The operator said no, or cancelled a prompt (Ctrl-C): nothing was sent. */
  | 'not-confirmed'
  | 'cancelled'
  /** The runtime reported the update or eviction as failed. */
  | 'refused'
  /** The runtime is known to crash on what would be sent (iSulad) or cannot apply it (Docker), and --force was not given: nothing was sent. */
  | 'unsafe-runtime';

/** How the update/evict flow ended when it did not send, or the runtime refused. */
export class ControlError extends Error {
  override readonly name = 'ControlError';
  constructor(
    readonly code: ControlErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get kind(): ErrorKind {
    return CONTROL_ERROR_KIND[this.code];
  }
}

const CONTROL_ERROR_KIND: Record<ControlErrorCode, ErrorKind> = {
  'no-container': 'usage',
  'needs-yes': 'usage',
  'not-confirmed': 'failed',
  cancelled: 'failed',
  refused: 'refused',
  'unsafe-runtime': 'usage',
};
