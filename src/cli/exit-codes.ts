/**
 * Exit codes of every nrictl command. The README documents this table; keep both in step.
 */
export const ExitCode = {
  /** Success; for validate/lint/doctor: no findings at error level. */
  OK: 0,
  /** validate/lint/doctor found errors; other commands: the operation failed. */
  FAILED: 1,
  /** Bad usage or bad input: unknown flag, malformed value, unknown container. Nothing was sent. */
  USAGE: 2,
  /** validate/lint/doctor with --strict: warnings but no errors. */
  WARNINGS: 3,
  /** Could not reach the runtime: no socket, permission denied, connection refused, not a socket. */
  CONNECT: 4,
  /** The runtime rejected the registration or it did not complete in time. */
  REGISTRATION: 5,
  /** The runtime went away or spoke garbage after registration. */
  RUNTIME_GONE: 6,
  /** The runtime answered but refused the request (for example a failed container update). */
  REFUSED: 7,
  /** A bug in nrictl: please report it with the --debug output. */
  INTERNAL: 70,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
