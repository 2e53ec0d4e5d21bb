// What every error a library layer throws says about itself, so that the command line
// needs one table (src/cli/error-table.ts) from kind to exit code and never looks at a
// class name. ttrpc and mux, which must stand alone, spell the same kinds without
// importing this file.

const ERROR_KINDS = [
  /** The caller's input is wrong: a flag value, a file's content, a name. Nothing was done. */
  'usage',
  /** The input names something that is not there: a file, a directory, a container. */
  'not-found',
  /** What the input asks for collides with what exists: a path in use, a project already there. */
  'conflict',
  /** The runtime could not be reached: no socket, permission denied, refused. */
  'connect',
  /** The runtime refused the registration, or it did not complete in time. */
  'registration',
  /** The runtime went away, or sent something we could not read. */
  'runtime-gone',
  /** The runtime did not answer within the deadline. */
  'timeout',
  /** The runtime answered and refused the request. */
  'refused',
  /** The runtime answered that it does not implement the call (gRPC Unimplemented): an older runtime. */
  'unimplemented',
  /** The operation did not succeed, or was cancelled before anything was sent. */
  'failed',
  /** A data source the caller named (a Prometheus URL) cannot be reached, or does not answer as one. */
  'bad-source',
  /** A bug: something that should not happen did. */
  'internal',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/**
 * An error that says what kind of failure it is and, where one of the caller's inputs
 * is to blame, which one: `option` is the name of the option or argument the library was
 * given ("pluginDir", "scenario"), which the command line turns into its flag's name.
 */
export interface KindedError extends Error {
  readonly kind: ErrorKind;
  readonly option?: string;
}

function isErrorKind(value: unknown): value is ErrorKind {
  return typeof value === 'string' && (ERROR_KINDS as readonly string[]).includes(value);
}

export function isKindedError(err: unknown): err is KindedError {
  return err instanceof Error && isErrorKind((err as { kind?: unknown }).kind);
}
