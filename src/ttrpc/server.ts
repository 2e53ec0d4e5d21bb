// The serving side: registered handlers, one ServerConnection per stream served.
import { inspect } from 'node:util';
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { BatchedWriter } from './batched-writer.js';
import { FrameReader } from './frame-reader.js';
import {
  FLAG_REMOTE_OPEN,
  FrameDecoder,
  HEADER_LENGTH,
  MESSAGE_LENGTH_MAX,
  MessageType,
  encodeHeader,
  type DecodedFrame,
} from './frame.js';
import { decodeRequest, encodeResponseAfter, type TtrpcRequest, type TtrpcStatus } from './messages.js';
import { Code, TtrpcClosedError, TtrpcError } from './status.js';

export interface HandlerContext {
  service: string;
  method: string;
  metadata: Record<string, string>;
  /** When the caller stops waiting, in ms since the epoch; absent when it sent no timeout. */
  deadline?: number;
  /** Aborted when the deadline passes (reason: TtrpcError DeadlineExceeded) or the connection closes (TtrpcClosedError). */
  signal: AbortSignal;
  /**
   * Runs fn with the reason when `signal` would fire (at once if it already has); returns
   * the function that takes fn off again. Unlike reading `signal`, it makes no
   * AbortController, which costs more than the rest of a call's dispatch.
   */
  onAbort(fn: (reason: unknown) => void): () => void;
}

export type Handler = (payload: Buffer, ctx: HandlerContext) => Promise<Uint8Array> | Uint8Array;

export interface TtrpcServerOptions {
  maxMessageLength?: number;
  /**
   * Requests handled at once on one connection; past it the connection stops reading
   * until one finishes. Default DEFAULT_MAX_IN_FLIGHT.
   */
  maxInFlight?: number;
  /** Refuse framing a Go peer could not read (see FrameReader); for a test bench that must be as strict as Go. */
  strictGoFraming?: boolean;
}

/** Enough for any NRI peer (a runtime sends one request at a time per plugin), small enough to bound memory. */
export const DEFAULT_MAX_IN_FLIGHT = 128;

/** A set of handlers; serve() runs them on a stream. One server may serve many streams. */
export class TtrpcServer {
  readonly #services = new Map<string, Map<string, Handler>>();
  readonly #max: number;
  readonly #maxInFlight: number;
  readonly #strictGoFraming: boolean;

  constructor(opts: TtrpcServerOptions = {}) {
    this.#max = opts.maxMessageLength ?? MESSAGE_LENGTH_MAX;
    this.#maxInFlight = opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    this.#strictGoFraming = opts.strictGoFraming ?? false;
  }

  register(service: string, method: string, handler: Handler): void {
    let methods = this.#services.get(service);
    if (!methods) this.#services.set(service, (methods = new Map<string, Handler>()));
    if (methods.has(method)) throw new Error(`ttrpc handler for ${service}/${method} is already registered`);
    methods.set(method, handler);
  }

  serve(stream: Duplex): ServerConnection {
    return new ServerConnection(
      stream,
      (service, method) => this.#resolve(service, method),
      this.#max,
      this.#maxInFlight,
      this.#strictGoFraming,
    );
  }

  /** Finds the handler, or the Unimplemented answer naming what is missing. */
  #resolve(service: string, method: string): Handler | TtrpcError {
    const methods = this.#services.get(service);
    if (!methods)
      return new TtrpcError(Code.Unimplemented, `service ${service} is not served here`, { service, method });
    const handler = methods.get(method);
    if (!handler)
      return new TtrpcError(Code.Unimplemented, `method ${method} of service ${service} is not served here`, {
        service,
        method,
      });
    return handler;
  }
}

type Resolver = (service: string, method: string) => Handler | TtrpcError;

/**
 * One request being handled. Its AbortController is made only when the handler reads
 * ctx.signal: most handlers never do, and a controller costs more than the rest of the
 * dispatch together.
 */
class Call implements HandlerContext {
  deadline?: number;
  timer: NodeJS.Timeout | undefined;
  #controller: AbortController | undefined;
  #listeners: Set<(reason: unknown) => void> | undefined;
  #aborted = false;
  #reason: unknown;

  constructor(
    readonly service: string,
    readonly method: string,
    readonly metadata: Record<string, string>,
  ) {}

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Why the call was aborted, if it was. */
  get abortReason(): unknown {
    return this.#reason;
  }

  onAbort(fn: (reason: unknown) => void): () => void {
    if (this.#aborted) {
      fn(this.#reason);
      return () => {};
    }
    (this.#listeners ??= new Set()).add(fn);
    return () => void this.#listeners?.delete(fn);
  }

  abort(reason: TtrpcError): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    for (const fn of listeners ?? []) fn(reason);
  }

  /** The context handed to the handler: the call's fields, without its bookkeeping. */
  context(): HandlerContext {
    return new CallContext(this);
  }
}

class CallContext implements HandlerContext {
  readonly service: string;
  readonly method: string;
  readonly metadata: Record<string, string>;
  readonly deadline?: number;
  readonly #call: Call;

  constructor(call: Call) {
    this.#call = call;
    this.service = call.service;
    this.method = call.method;
    this.metadata = call.metadata;
    if (call.deadline !== undefined) this.deadline = call.deadline;
  }

  get signal(): AbortSignal {
    return this.#call.signal;
  }

  onAbort(fn: (reason: unknown) => void): () => void {
    return this.#call.onAbort(fn);
  }
}

/**
 * One served stream. It owns the stream: close() destroys it, and the stream's end or
 * failure closes it. Emits 'close' (err?: Error) once; never emits 'error'.
 *
 * Flow control: it stops reading requests while its answers wait for a peer that does
 * not read them, and while maxInFlight requests are being handled, so that no peer can
 * make it hold more than that many calls and one stream buffer of answers.
 */
export class ServerConnection extends EventEmitter {
  readonly #resolve: Resolver;
  readonly #stream: Duplex;
  readonly #writer: BatchedWriter;
  // Where an answer's message starts in its frame: after the stream's framing and ours.
  readonly #messageOffset: number;
  readonly #max: number;
  readonly #maxInFlight: number;
  readonly #inFlight = new Map<number, Call>();
  readonly #reader: FrameReader;
  #lastStreamId = 0;
  #closed = false;

  constructor(
    stream: Duplex,
    resolve: Resolver,
    maxMessageLength: number,
    maxInFlight: number,
    strictGoFraming: boolean,
  ) {
    super();
    this.#resolve = resolve;
    this.#stream = stream;
    this.#max = maxMessageLength;
    this.#maxInFlight = maxInFlight;
    this.#writer = new BatchedWriter(stream, (blocked) =>
      blocked ? this.#reader.hold('answers unread') : this.#reader.release('answers unread'),
    );
    this.#messageOffset = this.#writer.headroom + HEADER_LENGTH;
    // Unknown message types pass the decoder and are ignored here, as the Go server does for future compatibility.
    const decoder = new FrameDecoder({ maxMessageLength, oversize: 'skip', unknownTypes: 'pass' });
    this.#reader = new FrameReader(stream, decoder, this, (f) => this.#onFrame(f), strictGoFraming);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Requests being handled now. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  close(err?: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const [, f] of this.#inFlight) {
      if (f.timer) clearTimeout(f.timer);
      const why = err ? `the connection closed: ${err.message}` : 'the connection closed';
      f.abort(new TtrpcClosedError(why, { service: f.service, method: f.method, cause: err }));
    }
    this.#inFlight.clear();
    this.#stream.destroy();
    this.emit('close', err);
  }

  #onFrame({ header, payload, oversize }: DecodedFrame): void {
    const id = header.streamId;
    if (header.type !== MessageType.Request && header.type !== MessageType.Data) return;
    if (oversize) {
      this.#answerStatus(id, {
        code: Code.ResourceExhausted,
        message: `message of ${header.length} bytes exceeds the maximum message size of ${this.#max}`,
      });
      return;
    }
    if (id % 2 !== 1) {
      this.#answerStatus(id, {
        code: Code.InvalidArgument,
        message: `stream id ${id} is even; client-initiated streams must be odd`,
      });
      return;
    }
    if (header.type === MessageType.Data) {
      this.#answerStatus(id, {
        code: Code.InvalidArgument,
        message: `stream ${id} is not open for data (streaming is not supported)`,
      });
      return;
    }
    if (id <= this.#lastStreamId) {
      this.#answerStatus(id, {
        code: Code.InvalidArgument,
        message: `stream id ${id} is reused or out of order (last was ${this.#lastStreamId})`,
      });
      return;
    }
    this.#lastStreamId = id;
    let req: TtrpcRequest;
    try {
      req = decodeRequest(payload);
    } catch (err) {
      this.#answerStatus(id, { code: Code.InvalidArgument, message: `undecodable request: ${(err as Error).message}` });
      return;
    }
    if (header.flags & FLAG_REMOTE_OPEN) {
      this.#answerStatus(id, {
        code: Code.Unimplemented,
        message: `${req.service}/${req.method}: streaming requests are not supported`,
      });
      return;
    }
    const handler = this.#resolve(req.service, req.method);
    if (handler instanceof TtrpcError) {
      this.#answerStatus(id, { code: handler.code, message: handler.statusMessage });
      return;
    }
    this.#run(id, req, handler);
  }

  #run(id: number, req: TtrpcRequest, handler: Handler): void {
    const { service, method } = req;
    const call = new Call(service, method, toRecord(req.metadata));
    if (req.timeoutNano !== 0) {
      // Go's server derives the handler's context with WithTimeout(timeout_nano): a zero or
      // negative value means the deadline has already passed.
      const ms = req.timeoutNano / 1e6;
      call.deadline = Date.now() + ms;
      const expire = () =>
        call.abort(
          new TtrpcError(Code.DeadlineExceeded, `the caller's deadline of ${ms} ms passed`, { service, method }),
        );
      if (ms <= 0) expire();
      else if (ms < 0x7fffffff) {
        // (setTimeout caps at 2^31-1 ms; a longer deadline is as good as none)
        call.timer = setTimeout(expire, ms);
        call.timer.unref();
      }
    }
    this.#inFlight.set(id, call);
    if (this.#inFlight.size >= this.#maxInFlight) this.#reader.hold('calls in flight');
    let result: Promise<Uint8Array> | Uint8Array;
    try {
      result = handler(req.payload as Buffer, call.context());
    } catch (err) {
      this.#finish(id, call, undefined, err);
      return;
    }
    if (result instanceof Uint8Array) {
      this.#finish(id, call, result, undefined);
      return;
    }
    Promise.resolve(result).then(
      (payload) => this.#finish(id, call, payload, undefined),
      (err: unknown) => this.#finish(id, call, undefined, err),
    );
  }

  #finish(id: number, call: Call, payload: Uint8Array | undefined, err: unknown): void {
    if (call.timer) clearTimeout(call.timer);
    if (this.#inFlight.get(id) !== call) return; // the connection closed meanwhile
    this.#inFlight.delete(id);
    if (this.#inFlight.size < this.#maxInFlight) this.#reader.release('calls in flight');
    if (err === undefined && payload instanceof Uint8Array) {
      // No status on success: what the Go server writes (see the v0.6.1 captures).
      const frame = encodeResponseAfter(this.#messageOffset, { payload });
      if (frame.length - this.#messageOffset <= this.#max) {
        this.#writeFrame(id, frame);
        return;
      }
      this.#answerStatus(id, {
        code: Code.ResourceExhausted,
        message: `${call.service}/${call.method}: response of ${frame.length - this.#messageOffset} bytes exceeds the maximum message size of ${this.#max}`,
      });
      return;
    }
    this.#answerStatus(id, statusOf(err, payload, call.abortReason));
  }

  #answerStatus(id: number, status: TtrpcStatus): void {
    let frame = encodeResponseAfter(this.#messageOffset, { status, payload: Buffer.alloc(0) });
    if (frame.length - this.#messageOffset > this.#max) {
      // Only a huge error message gets here; its first kilobyte says enough.
      frame = encodeResponseAfter(this.#messageOffset, {
        status: { code: status.code, message: status.message.slice(0, 1024) },
        payload: Buffer.alloc(0),
      });
    }
    this.#writeFrame(id, frame);
  }

  /** Fills in the header of a frame encoded with the writer's headroom and ours, and sends it. */
  #writeFrame(id: number, frame: Buffer): void {
    if (this.#closed) return;
    encodeHeader(frame, this.#writer.headroom, frame.length - this.#messageOffset, id, MessageType.Response, 0);
    this.#writer.write(frame);
  }
}

/** The status a failed handler answers with. */
function statusOf(err: unknown, payload: unknown, abortReason: unknown): TtrpcStatus {
  if (err instanceof TtrpcError) return { code: err.code, message: err.statusMessage };
  // A handler that gave up because its signal fired answers with the signal's reason.
  if (abortReason instanceof TtrpcError && err !== undefined) {
    return { code: abortReason.code, message: abortReason.statusMessage };
  }
  if (err === undefined) {
    return { code: Code.Internal, message: `handler returned ${typeof payload} instead of bytes` };
  }
  const message =
    err instanceof Error ? err.message : typeof err === 'string' ? err : inspect(err, { breakLength: Infinity });
  return { code: Code.Unknown, message };
}

function toRecord(kvs: Array<{ key: string; value: string }>): Record<string, string> {
  const md: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const { key, value } of kvs) md[key] = value;
  return md;
}
