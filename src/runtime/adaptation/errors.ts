// Typed errors of the adaptation's rules: plugin discovery and merging the answers.
// Each names the file, plugin or container involved so that a command can print the
// message as it is.

import type { ErrorKind } from '../../errors/index.js';
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

/** Two plugins set the same field of the same container: the runtime fails the request. */
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
    const what = key === undefined ? field : `${field} ${JSON.stringify(key)}`;
    super(
      `conflicting changes to container "${containerId}": plugin "${plugins[1]}" tried to set ${what}, ` +
        `which plugin "${plugins[0]}" already set`,
    );
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
