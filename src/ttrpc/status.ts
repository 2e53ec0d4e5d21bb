// Status codes and the errors a ttrpc call can end in.

/** The google.rpc status codes (google/rpc/code.proto), which ttrpc carries in every response. */
export enum Code {
  OK = 0,
  Canceled = 1,
  Unknown = 2,
  InvalidArgument = 3,
  DeadlineExceeded = 4,
  NotFound = 5,
  AlreadyExists = 6,
  PermissionDenied = 7,
  ResourceExhausted = 8,
  FailedPrecondition = 9,
  Aborted = 10,
  OutOfRange = 11,
  Unimplemented = 12,
  Internal = 13,
  Unavailable = 14,
  DataLoss = 15,
  Unauthenticated = 16,
}

/** The name of a code, or `Code(n)` for a number outside the enum (peers may send any int32). */
export function codeName(code: number): string {
  const name = (Code as unknown as Record<number, string | undefined>)[code];
  return name ?? `Code(${code})`;
}

export interface TtrpcErrorOptions {
  service?: string;
  method?: string;
  cause?: unknown;
}

/**
 * A call that ended with a non-OK status, either answered so by the peer or decided
 * locally (deadline, cancellation, oversize). `statusMessage` is the bare status
 * message as it travels on the wire; `message` adds the code and the method called.
 */
export class TtrpcError extends Error {
  readonly code: Code;
  /** How a caller fails because of it: the peer went away, did not answer in time, or answered no. */
  readonly kind: 'runtime-gone' | 'timeout' | 'failed' | 'refused';
  readonly statusMessage: string;
  readonly service?: string;
  readonly method?: string;

  constructor(code: Code, statusMessage: string, opts: TtrpcErrorOptions = {}) {
    const where =
      opts.service !== undefined || opts.method !== undefined ? `${opts.service ?? '?'}/${opts.method ?? '?'}: ` : '';
    super(`${where}${codeName(code)}: ${statusMessage}`, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'TtrpcError';
    this.code = code;
    this.kind = kindOfCode(code);
    this.statusMessage = statusMessage;
    if (opts.service !== undefined) this.service = opts.service;
    if (opts.method !== undefined) this.method = opts.method;
  }
}

function kindOfCode(code: Code): TtrpcError['kind'] {
  if (code === Code.Unavailable) return 'runtime-gone';
  if (code === Code.DeadlineExceeded) return 'timeout';
  if (code === Code.Canceled) return 'failed';
  return 'refused';
}

/** The peer sent bytes that are not ttrpc: a bad header, an oversize length that cannot be skipped, a malformed message. */
export class TtrpcProtocolError extends Error {
  readonly kind = 'runtime-gone' as const;
  constructor(message: string, opts?: { cause?: unknown }) {
    super(message, opts);
    this.name = 'TtrpcProtocolError';
  }
}

/** The connection closed (by either side, or because it failed) before the call was answered. Code Unavailable. */
export class TtrpcClosedError extends TtrpcError {
  constructor(statusMessage: string, opts: TtrpcErrorOptions = {}) {
    super(Code.Unavailable, statusMessage, opts);
    this.name = 'TtrpcClosedError';
  }
}
