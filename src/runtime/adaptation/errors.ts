// Typed errors of the adaptation's rules: plugin discovery and merging the answers.
// Each names the file or plugin involved so that a command can print the message as it
// is; the container is a field of its own where the Go library leaves it out.

import type { ErrorKind } from '../../errors/index.js';
import { goQuote } from './go-text.js';
export class DiscoveryError extends Error {
  override readonly name = 'DiscoveryError';
  constructor(
    message: string,
    /** The plugin directory that was scanned. */
    readonly pluginPath: string,
    /** The entry (plugin executable or configuration file) that made discovery fail. */
    readonly file: string,
    readonly reason: 'read-dir' | 'bad-name' | 'read-config',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** A plugin directory the runtime cannot use is the caller's to fix (the Go runtime fails start-up). */
  get kind(): ErrorKind {
    return this.reason === 'read-dir' ? 'not-found' : 'usage';
  }
}

/**
 * Two plugins set the same field of the same container: the runtime fails the request.
 * The message is the Go library's (pkg/api owners.go Conflict), newcomer first, the key
 * after one space (so a field without key ends in a space, as Go's does); the container
 * is not in it, as it is not in Go's: it is `containerId`.
 */
export class ConflictError extends Error {
  override readonly name = 'ConflictError';
  readonly kind: ErrorKind = 'conflict';
  constructor(
    /** The runtime's name of the field (api.proto's Field enum: CPUShares, Annotations, ...). */
    readonly field: string,
    /** For keyed fields (annotations, mounts, env, rlimits ...): which entry. */
    readonly key: string | undefined,
    /** [the plugin that owned the field first, the plugin that tried to set it again]. */
    readonly plugins: [string, string],
    readonly containerId: string,
  ) {
    super(`plugins ${goQuote(plugins[1])} and ${goQuote(plugins[0])} both tried to set ${field} ${key ?? ''}`);
  }
}

/** A plugin answer the runtime refuses for another reason than a conflict. */
export class MergeError extends Error {
  override readonly name = 'MergeError';
  readonly kind: ErrorKind = 'failed';
  constructor(
    message: string,
    readonly plugin: string,
    readonly containerId: string,
    readonly reason: 'update-during-creation',
  ) {
    super(message);
  }
}

/**
 * A pre-started plugin failed to start where the runtime's NRI makes that fatal (the Go
 * adaptation v0.3.0-v0.6.1, RuntimeVintage.preStartFailureFatal): Start fails, every
 * plugin started so far is stopped, and the runtime does not come up. The message is the
 * error Start returns, in the Go adaptation's words (`invalid plugin events: 0x800`),
 * which the embedding runtime wraps in its own (src/runtime/sim/start-failure.ts).
 */
export class PreStartFailedError extends Error {
  override readonly name = 'PreStartFailedError';
  readonly kind: ErrorKind = 'failed';
  constructor(
    message: string,
    /** The plugin's NN-name. */
    readonly plugin: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
