// The one table from what the library layers throw to what a user sees: one line and a
// documented exit code (README "Exit status", src/cli/exit-codes.ts). Errors are matched
// by their `name` and `code`, not by class, so this file loads no library layer: the
// base command imports it on every start-up.
import { ExitCode, type ExitCodeValue } from './exit-codes.js';

export interface ErrorOutcome {
  exitCode: ExitCodeValue;
  /** The line to print after "Error: "; undefined: print nothing (a normal end). */
  message: string | undefined;
}

type Named = Error & { code?: unknown; exitCode?: unknown; role?: unknown };

/** SessionError codes (src/session/errors.ts). */
const SESSION: Record<string, ExitCodeValue> = {
  'bad-identity': ExitCode.USAGE,
  'bad-scenario': ExitCode.USAGE,
  'no-socket': ExitCode.CONNECT,
  'permission-denied': ExitCode.CONNECT,
  'not-a-socket': ExitCode.CONNECT,
  refused: ExitCode.CONNECT,
  'path-too-long': ExitCode.USAGE,
  'registration-rejected': ExitCode.REGISTRATION,
  'registration-timeout': ExitCode.REGISTRATION,
  'no-events': ExitCode.REGISTRATION,
  'runtime-gone': ExitCode.RUNTIME_GONE,
  'call-timeout': ExitCode.RUNTIME_GONE,
  'malformed-frame': ExitCode.RUNTIME_GONE,
  'update-refused': ExitCode.REFUSED,
  cancelled: ExitCode.FAILED,
};

/** ControlError codes (src/control/errors.ts). */
const CONTROL: Record<string, ExitCodeValue> = {
  'no-container': ExitCode.USAGE,
  'needs-yes': ExitCode.USAGE,
  'not-confirmed': ExitCode.FAILED,
  cancelled: ExitCode.FAILED,
  refused: ExitCode.REFUSED,
  'unsafe-runtime': ExitCode.USAGE,
};

/** Bad input judged offline, whatever the layer: exit 2, message as it is. */
const USAGE_ERRORS = new Set([
  'ControlInputError',
  'ContainerLookupError',
  'FilterError',
  'EventNameError',
  'PluginNameError',
  'ScenarioError',
  'VintageError',
  'DurationError',
  'QuantityError',
  'CpusetError',
  'CheckPathError',
  'UnknownConfigFormatError',
  'PlacementError',
  'MetricsAddressError',
  'OutputFileError',
  'InputFileError',
  'InputDocumentError',
  'ExpectationError',
]);

/** A write to stdout or stderr whose reader went away (`| head`): a normal end. */
export function isClosedOutput(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

export function describeError(err: unknown): ErrorOutcome {
  if (!(err instanceof Error))
    return {
      exitCode: ExitCode.INTERNAL,
      message: `internal error: ${String(err)} (run again with --debug and report it)`,
    };
  const e = err as Named;
  if (isClosedOutput(e)) return { exitCode: ExitCode.OK, message: undefined };
  switch (e.name) {
    case 'UserError':
      return { exitCode: e.exitCode as ExitCodeValue, message: e.message };
    case 'SessionError': {
      const code = SESSION[String(e.code)];
      if (code !== undefined) return { exitCode: code, message: e.message };
      break;
    }
    case 'ControlError': {
      const code = CONTROL[String(e.code)];
      if (code !== undefined) return { exitCode: code, message: e.message };
      break;
    }
    case 'CheckPathError':
      // The checks say what the path was meant to be: "plugin directory /x does not exist".
      return { exitCode: ExitCode.USAGE, message: typeof e.role === 'string' ? `${e.role} ${e.message}` : e.message };
    case 'AtomicWriteError':
      return { exitCode: ExitCode.FAILED, message: `${e.message}: check that the directory exists and is writable` };
    default:
      if (USAGE_ERRORS.has(e.name)) return { exitCode: ExitCode.USAGE, message: e.message };
  }
  return {
    exitCode: ExitCode.INTERNAL,
    message: `internal error: ${e.message} (run again with --debug and report it)`,
  };
}
