// What goes wrong with a recording, as one line that names the file (and the line of it)
// and what to do. The kind decides the exit code (src/cli/error-table.ts): a file that is
// not a recording nrictl can read, or one already there, is the caller's input (2).
import type { ErrorKind } from '../errors/index.js';

export class RecordingError extends Error {
  override readonly name = 'RecordingError';
  constructor(
    message: string,
    readonly kind: ErrorKind,
    /** The option at fault: `record` (--record), `replay` (--replay), or one --replay cannot take (`criSocketPath`). */
    readonly option: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A recording that cannot be read: "FILE: line N: what was wrong". */
export function badRecording(file: string, line: number | undefined, what: string): RecordingError {
  return new RecordingError(`${file}: ${line === undefined ? '' : `line ${line}: `}${what}`, 'usage', 'replay');
}

/** The recording `file` could not be written (`why`): what logs and trace then end with. */
export function recordingFailed(file: string, why: string): RecordingError {
  return new RecordingError(
    `${file}: the recording could not be written (${why}); nothing was left there`,
    'failed',
    'record',
  );
}
