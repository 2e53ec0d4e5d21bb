// One HTTP GET with a deadline on the whole exchange (connecting, waiting, reading) and a
// bound on the body, for the runtime's metrics page (session) and Prometheus' API (fleet).
// It says what went wrong as a code; each caller turns that into its own error, in its
// own words, so that the reader knows nothing of who asks.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ErrorKind } from '../errors/index.js';

export type BoundedGetFailure =
  /** No connection: refused, no route, a name that does not resolve; `detail` is the system's code. */
  | 'unreachable'
  /** The whole exchange did not end within the deadline. */
  | 'timeout'
  /** The body (as declared, or as read) is past the bound: not read further. */
  | 'too-large'
  /** The answer started and broke off. */
  | 'broken-off'
  /** The caller's signal fired. */
  | 'cancelled';

const KIND: Record<BoundedGetFailure, ErrorKind> = {
  unreachable: 'connect',
  timeout: 'timeout',
  'too-large': 'failed',
  'broken-off': 'failed',
  cancelled: 'failed',
};

export class BoundedGetError extends Error {
  override readonly name = 'BoundedGetError';
  readonly kind: ErrorKind;
  constructor(
    readonly code: BoundedGetFailure,
    /** The system's error code or message ('unreachable', 'broken-off'). */
    readonly detail: string,
    /** The body's length as the answer declared it ('too-large', when it did). */
    readonly declaredBytes?: number,
    options?: { cause?: unknown },
  ) {
    super(`${code}${detail ? `: ${detail}` : ''}`, options);
    this.kind = KIND[code];
  }
}

export interface BoundedGetOptions {
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal | undefined;
  headers?: Record<string, string> | undefined;
}

export interface BoundedAnswer {
  /** Every status is an answer (redirects are not followed); the caller judges it. */
  status: number;
  body: string;
}

/** GETs an http: or https: URL. Rejects with BoundedGetError only. */
export function boundedGet(url: URL, opts: BoundedGetOptions): Promise<BoundedAnswer> {
  if (opts.signal?.aborted) return Promise.reject(new BoundedGetError('cancelled', ''));
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let settled = false;
    // Every event that settles comes after this statement has run.
    const req = request(url, { method: 'GET', headers: opts.headers ?? {} }, (res) =>
      readBody(res, opts.maxBytes, finish),
    );
    const finish = (err: BoundedGetError | undefined, answer?: BoundedAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      req.destroy();
      if (err) reject(err);
      else resolve(answer!);
    };
    const onAbort = (): void => finish(new BoundedGetError('cancelled', ''));
    const timer = setTimeout(() => finish(new BoundedGetError('timeout', '')), opts.timeoutMs);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish(new BoundedGetError('unreachable', err.code ?? err.message, undefined, { cause: err })),
    );
    req.end();
  });
}

function readBody(
  res: IncomingMessage,
  maxBytes: number,
  finish: (err: BoundedGetError | undefined, answer?: BoundedAnswer) => void,
): void {
  const declared = Number(res.headers['content-length'] ?? NaN);
  if (declared > maxBytes) {
    finish(new BoundedGetError('too-large', '', declared));
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) finish(new BoundedGetError('too-large', ''));
    else chunks.push(chunk);
  });
  res.on('end', () => finish(undefined, { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
  res.on('error', (err) => finish(new BoundedGetError('broken-off', err.message, undefined, { cause: err })));
  // A connection reset mid-body ends the response without 'end' on some Node versions.
  res.on('aborted', () => finish(new BoundedGetError('broken-off', 'the connection closed mid-answer')));
}
