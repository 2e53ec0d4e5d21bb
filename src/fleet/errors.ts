// Why a Prometheus could not give fleet its answer. Every cause but a cancellation is the
// URL's fault as far as the command line can tell (nothing there, not Prometheus, too slow),
// hence one kind: the CLI says one line and exits 2.
import type { ErrorKind } from '../errors/index.js';

export type PrometheusErrorCode =
  | 'bad-url'
  | 'unreachable'
  | 'timeout'
  | 'http-status'
  | 'too-large'
  | 'not-prometheus'
  | 'query-refused'
  | 'cancelled';

export class PrometheusError extends Error {
  override readonly name = 'PrometheusError';
  readonly kind: ErrorKind;
  readonly option = 'prometheus';
  constructor(
    readonly code: PrometheusErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.kind = code === 'cancelled' ? 'failed' : 'bad-source';
  }
}

/** A bad --selector: the caller's input, nothing was asked. */
export class SelectorError extends Error {
  override readonly name = 'SelectorError';
  readonly kind: ErrorKind = 'usage';
  readonly option = 'selector';
}
