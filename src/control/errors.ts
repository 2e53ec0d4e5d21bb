// The errors of `nrictl update` / `nrictl evict` below the command line. Each names the
// flag or the container query involved, so a command can print its message as it is.

/** A flag value that cannot be sent: judged before anything connects. */
export class ControlInputError extends Error {
  override readonly name = 'ControlInputError';
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
  constructor(
    readonly reason: 'unknown' | 'ambiguous',
    readonly query: string,
    readonly candidates: ContainerCandidate[],
    message: string,
  ) {
    super(message);
  }
}
