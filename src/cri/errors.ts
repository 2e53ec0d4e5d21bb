// The one error type of the CRI layer. `code` says what went wrong in words a caller can
// branch on (conformance tells "not found" from "unimplemented"); `kind` is what the
// command line maps to an exit code (src/cli/error-table.ts). Messages are one line that
// names the socket or the call and what to do.
import type { ErrorKind } from '../errors/index.js';
import { grpcCodeName } from './status.js';

export type CriErrorCode =
  /** Nothing at the path (or a directory on the way is missing). */
  | 'no-socket'
  /** The path is a file, a directory or a fifo. */
  | 'not-a-socket'
  | 'permission-denied'
  /** A socket file nothing listens on: a runtime that is not running. */
  | 'connection-refused'
  /** The path is longer than a unix socket path can be: nothing was dialled. */
  | 'path-too-long'
  /** Something answers there, but not CRI over gRPC (an NRI socket, an HTTP server). */
  | 'not-cri'
  /** The socket accepts connections and says nothing, or a call went unanswered past its deadline. */
  | 'no-answer'
  /** The connection dropped during a call. */
  | 'runtime-gone'
  /** The runtime answered NotFound: no such pod, container or image. */
  | 'not-found'
  /** The runtime answered Unimplemented: it has no such call. */
  | 'unimplemented'
  /** The runtime answered with any other error status. */
  | 'refused'
  /** The node's runtime has no CRI at all (Docker). */
  | 'no-cri'
  /** Stopped by the caller's signal. */
  | 'cancelled';

const KIND: Readonly<Record<CriErrorCode, ErrorKind>> = Object.freeze({
  'no-socket': 'connect',
  'not-a-socket': 'connect',
  'permission-denied': 'connect',
  'connection-refused': 'connect',
  'path-too-long': 'usage',
  'not-cri': 'connect',
  'no-answer': 'timeout',
  'runtime-gone': 'runtime-gone',
  'not-found': 'not-found',
  unimplemented: 'unimplemented',
  refused: 'refused',
  'no-cri': 'connect',
  cancelled: 'failed',
});

export interface CriErrorDetails {
  socketPath?: string | undefined;
  /** The call that failed ("RunPodSandbox"), when one did. */
  call?: string | undefined;
  /** The gRPC status the runtime answered with, when it answered. */
  grpcCode?: number | undefined;
  /** The runtime's own words (the status's message), when it answered. */
  grpcMessage?: string | undefined;
  cause?: unknown;
}

export class CriError extends Error {
  override readonly name = 'CriError';
  constructor(
    readonly code: CriErrorCode,
    message: string,
    readonly details: CriErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }

  get kind(): ErrorKind {
    return KIND[this.code];
  }

  /** The status as Go's gRPC prints it ("rpc error: code = NotFound desc = ..."), when the runtime answered one. */
  get goStatus(): string | undefined {
    const { grpcCode, grpcMessage } = this.details;
    return grpcCode === undefined
      ? undefined
      : `rpc error: code = ${grpcCodeName(grpcCode)} desc = ${grpcMessage ?? ''}`;
  }
}
