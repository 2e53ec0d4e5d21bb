/**
 * Exit codes of every nrictl command. The README documents this table (npm run gen:readme);
 * src/cli/error-table.ts maps library errors onto it.
 */
export const ExitCode = {
  /** Success; for validate/lint/doctor: no findings at error level. */
  OK: 0,
  /** validate/lint/doctor found errors; other commands: the operation failed, or was cancelled (Ctrl-C, a declined question) before anything was sent. */
  FAILED: 1,
  /** Bad usage or bad input: unknown flag, malformed value, unknown container, a plugin name the runtime would refuse, update/evict without a terminal and without --yes. Nothing was sent. fleet: a --prometheus URL that cannot be reached or is not Prometheus. */
  USAGE: 2,
  /** validate/lint/doctor with --strict: warnings but no errors. */
  WARNINGS: 3,
  /** Could not reach the runtime: no socket, permission denied, connection refused, not a socket, a socket that does not speak the protocol (NRI's, or CRI's gRPC). */
  CONNECT: 4,
  /** The runtime rejected the registration or it did not complete in time. */
  REGISTRATION: 5,
  /** The runtime went away, stopped answering within --timeout after registering nrictl, or sent a frame nrictl rejected. */
  RUNTIME_GONE: 6,
  /** The runtime answered but refused the request (for example a failed container update), or does not implement the CRI call. */
  REFUSED: 7,
  /** A bug in nrictl: please report it with the --debug output. */
  INTERNAL: 70,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * The exit code of a check that ran to its end (validate, lint, doctor): 1 with errors,
 * 3 with warnings only under --strict, else 0.
 */
export function findingsExitCode(counts: { error: number; warning: number }, strict: boolean): ExitCodeValue {
  if (counts.error > 0) return ExitCode.FAILED;
  if (strict && counts.warning > 0) return ExitCode.WARNINGS;
  return ExitCode.OK;
}
