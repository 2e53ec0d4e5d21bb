// The one table from what the library layers throw to what a user sees: one line and a
// documented exit code (README "Exit codes", src/cli/exit-codes.ts). Every library error
// says its kind (src/errors); nothing here looks at class names. This file loads no
// library layer: the base command imports it on every start-up.
import { isKindedError, type ErrorKind } from '../errors/index.js';
import { ExitCode, type ExitCodeValue } from './exit-codes.js';

export interface ErrorOutcome {
  exitCode: ExitCodeValue;
  /** The line to print after "Error: "; undefined: print nothing (a normal end). */
  message: string | undefined;
}

/** The exit code of each kind of failure. */
const EXIT_CODE_OF_KIND: Readonly<Record<ErrorKind, ExitCodeValue>> = Object.freeze({
  usage: ExitCode.USAGE,
  'not-found': ExitCode.USAGE,
  conflict: ExitCode.USAGE,
  connect: ExitCode.CONNECT,
  registration: ExitCode.REGISTRATION,
  'runtime-gone': ExitCode.RUNTIME_GONE,
  timeout: ExitCode.RUNTIME_GONE,
  refused: ExitCode.REFUSED,
  unimplemented: ExitCode.REFUSED,
  failed: ExitCode.FAILED,
  'bad-source': ExitCode.USAGE,
  internal: ExitCode.INTERNAL,
});

/** A write to stdout or stderr whose reader went away (`| head`): a normal end. */
export function isClosedOutput(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/**
 * The exit code and the line for an error. `flagOf` names the command's flag for a
 * library option ("pluginDir" -> "--plugin-dir"), so that the message says which flag
 * to fix; the library does not know the command line's names.
 */
export function describeError(
  err: unknown,
  flagOf: (option: string) => string | undefined = () => undefined,
): ErrorOutcome {
  if (isClosedOutput(err)) return { exitCode: ExitCode.OK, message: undefined };
  if (!isKindedError(err)) {
    const what = err instanceof Error ? err.message : String(err);
    return { exitCode: ExitCode.INTERNAL, message: `internal error: ${what} (run again with --debug and report it)` };
  }
  const flag = err.option === undefined ? undefined : flagOf(err.option);
  const message = flag !== undefined && !err.message.startsWith(flag) ? `${flag}: ${err.message}` : err.message;
  if (err.kind === 'internal') {
    return {
      exitCode: ExitCode.INTERNAL,
      message: `internal error: ${message} (run again with --debug and report it)`,
    };
  }
  return { exitCode: EXIT_CODE_OF_KIND[err.kind], message };
}
