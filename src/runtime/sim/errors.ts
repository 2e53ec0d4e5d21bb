// Typed errors of the simulated runtime's own inputs: scenario files and the simulated
// state. Each names the file, pod or container involved.
import type { ErrorKind } from '../../errors/index.js';

export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
  readonly kind: ErrorKind = 'usage';
  constructor(
    message: string,
    readonly file: string,
    /** Where inside the document, e.g. "containers[2].resources.cpu_quota"; '' for the whole file. */
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** An operation on the simulated state named a pod or container that does not exist, or is in the way. */
export class StateError extends Error {
  override readonly name = 'StateError';
  constructor(
    message: string,
    readonly reason: 'unknown-pod' | 'unknown-container' | 'duplicate' | 'pod-has-containers',
    readonly id: string,
  ) {
    super(message);
  }

  get kind(): ErrorKind {
    return this.reason === 'unknown-pod' || this.reason === 'unknown-container' ? 'not-found' : 'conflict';
  }
}
