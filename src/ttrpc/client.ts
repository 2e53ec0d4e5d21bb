// The calling side of a ttrpc connection: unary calls, many in flight, answered in any order.
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import {
  FrameDecoder,
  HEADER_LENGTH,
  MESSAGE_LENGTH_MAX,
  MessageType,
  encodeHeader,
  type DecodedFrame,
} from './frame.js';
import { BatchedWriter } from './batched-writer.js';
import { FrameReader } from './frame-reader.js';
import { decodeResponse, encodeRequestPrefix, encodeRequestWithPrefix, type KeyValue } from './messages.js';
import { Code, TtrpcClosedError, TtrpcError } from './status.js';

export interface CallOptions {
  /** Deadline relative to now; sent as timeout_nano and enforced locally. Zero or less fails at once; Infinity means none. */
  timeoutMs?: number;
  metadata?: Record<string, string>;
  signal?: AbortSignal;
}

export interface TtrpcClientOptions {
  maxMessageLength?: number;
  /** Refuse framing a Go peer could not read (see FrameReader); for a test bench that must be as strict as Go. */
  strictGoFraming?: boolean;
  /** Calls waiting for an answer at once; a call past it fails at once with ResourceExhausted. Default DEFAULT_MAX_CALLS_IN_FLIGHT. */
  maxInFlight?: number;
  /** How an answer read after its call's deadline is judged; without a rule, one read before the deadline's timer ran is taken. */
  lateAnswers?: LateAnswerRule;
}

/**
 * How answers that come just after their deadline are judged. A Go client's deadline takes
 * effect late, within its runtime's timer slack, and an answer that arrives before it does
 * wins: a bench that stands in for a Go peer gives such answers the same chance.
 */
export interface LateAnswerRule {
  /** How long after the deadline an answer may still contest it. */
  windowMs: number;
  /** Whether an answer that came lateByMs after its deadline, within the window, is taken. */
  take(lateByMs: number): boolean;
}

/** Bounds what a peer that stops answering can make the client hold (each call keeps its request until answered). */
export const DEFAULT_MAX_CALLS_IN_FLIGHT = 1024;

interface PendingCall {
  service: string;
  method: string;
  resolve(payload: Buffer): void;
  reject(err: Error): void;
  /** When the call fails with DeadlineExceeded (performance.now() time), if it has a deadline. */
  deadline: number | undefined;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

const LAST_STREAM_ID = 0xffffffff;
/** Distinct service/method pairs whose encoded names a client keeps; a caller inventing names past it just encodes them each time. */
const PREFIXES_KEPT = 256;
const NO_METADATA: readonly KeyValue[] = [];

/**
 * A ttrpc client over any Duplex (a unix socket, one logical connection of a mux...).
 * The client owns the stream: close() destroys it, and its end or failure closes the
 * client. Emits 'close' (err?: Error) once; never emits 'error'.
 */
export class TtrpcClient extends EventEmitter {
  readonly #stream: Duplex;
  readonly #writer: BatchedWriter;
  readonly #max: number;
  readonly #maxInFlight: number;
  readonly #lateAnswers: LateAnswerRule | undefined;
  readonly #pending = new Map<number, PendingCall>();
  // service -> method -> the request's encoded fields 1 and 2, the same for every call.
  readonly #prefixes = new Map<string, Map<string, Buffer>>();
  #prefixCount = 0;
  #nextStreamId = 1; // client-initiated streams are odd and increase
  #closed = false;
  // One timer for every deadline: armed for the earliest one, it fails what is due and is
  // armed again for the next. A call answered in time costs no timer of its own.
  #deadlineTimer: NodeJS.Timeout | undefined;
  #deadlineTimerAt = Infinity;

  constructor(stream: Duplex, opts: TtrpcClientOptions = {}) {
    super();
    this.#stream = stream;
    this.#writer = new BatchedWriter(stream);
    this.#max = opts.maxMessageLength ?? MESSAGE_LENGTH_MAX;
    this.#maxInFlight = opts.maxInFlight ?? DEFAULT_MAX_CALLS_IN_FLIGHT;
    this.#lateAnswers = opts.lateAnswers;
    const decoder = new FrameDecoder({ maxMessageLength: this.#max, oversize: 'skip' });
    new FrameReader(stream, decoder, this, (f) => this.#onFrame(f), opts.strictGoFraming);
  }

  /** Calls sent and not yet answered. */
  get inFlight(): number {
    return this.#pending.size;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Calls service/method with an already encoded payload; resolves with the answer's payload. */
  call(service: string, method: string, payload: Uint8Array, opts: CallOptions = {}): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      // Only a failure names the call: no object for it on the way that succeeds.
      if (this.#closed) {
        reject(new TtrpcClosedError('the connection is closed', { service, method }));
        return;
      }
      const { signal } = opts;
      // Infinity reads as no deadline; setTimeout cannot wait past 2^31-1 ms, so neither do we.
      const timeoutMs = opts.timeoutMs === Infinity ? undefined : opts.timeoutMs;
      if (signal?.aborted) {
        reject(
          new TtrpcError(Code.Canceled, 'the call was aborted before it was sent', {
            service,
            method,
            cause: signal.reason,
          }),
        );
        return;
      }
      if (timeoutMs !== undefined && !(timeoutMs > 0)) {
        reject(
          new TtrpcError(Code.DeadlineExceeded, `the deadline (${timeoutMs} ms) passed before the call was sent`, {
            service,
            method,
          }),
        );
        return;
      }
      // Room for the transport's framing too, so that it frames the request in place.
      const room = this.#writer.headroom;
      const frame = encodeRequestWithPrefix(
        room + HEADER_LENGTH,
        this.#prefix(service, method),
        payload,
        timeoutMs === undefined ? 0 : Math.round(timeoutMs * 1e6),
        opts.metadata ? toKeyValues(opts.metadata) : NO_METADATA,
      );
      const length = frame.length - room - HEADER_LENGTH;
      if (length > this.#max) {
        // Refused before it costs a stream id, so the connection carries on unharmed.
        reject(
          new TtrpcError(
            Code.ResourceExhausted,
            `request of ${length} bytes exceeds the maximum message size of ${this.#max}`,
            { service, method },
          ),
        );
        return;
      }
      if (this.#pending.size >= this.#maxInFlight) {
        reject(
          new TtrpcError(
            Code.ResourceExhausted,
            `${this.#maxInFlight} calls are already waiting for an answer on this connection`,
            { service, method },
          ),
        );
        return;
      }
      const streamId = this.#nextStreamId;
      if (streamId > LAST_STREAM_ID) {
        const err = new TtrpcClosedError('stream ids are exhausted on this connection', { service, method });
        reject(err);
        this.close(err);
        return;
      }
      this.#nextStreamId += 2;

      const deadline = timeoutMs !== undefined && timeoutMs < 0x7fffffff ? performance.now() + timeoutMs : undefined;
      const call: PendingCall = {
        service,
        method,
        resolve,
        reject,
        deadline,
        timeoutMs: timeoutMs ?? 0,
        signal,
        onAbort: undefined,
      };
      if (deadline !== undefined && deadline < this.#deadlineTimerAt) this.#armDeadlineTimer(deadline);
      if (signal) {
        call.onAbort = () => {
          this.#settle(streamId)?.reject(
            new TtrpcError(Code.Canceled, 'the call was aborted', { service, method, cause: signal.reason }),
          );
        };
        signal.addEventListener('abort', call.onAbort, { once: true });
      }
      this.#pending.set(streamId, call);

      encodeHeader(frame, room, length, streamId, MessageType.Request, 0);
      this.#writer.write(frame);
    });
  }

  #prefix(service: string, method: string): Buffer {
    let methods = this.#prefixes.get(service);
    let prefix = methods?.get(method);
    if (prefix) return prefix;
    prefix = encodeRequestPrefix(service, method);
    if (this.#prefixCount < PREFIXES_KEPT) {
      if (!methods) this.#prefixes.set(service, (methods = new Map<string, Buffer>()));
      methods.set(method, prefix);
      this.#prefixCount++;
    }
    return prefix;
  }

  #armDeadlineTimer(at: number): void {
    if (this.#deadlineTimer) clearTimeout(this.#deadlineTimer);
    this.#deadlineTimerAt = at;
    // A timer may fire a little early by performance.now(); expire() then arms it again.
    this.#deadlineTimer = setTimeout(() => this.#expire(), Math.max(at - performance.now(), 1));
    this.#deadlineTimer.unref();
  }

  /** Fails the calls whose deadline (and late-answer window) has passed, and arms the timer for the next one. */
  #expire(): void {
    this.#deadlineTimer = undefined;
    this.#deadlineTimerAt = Infinity;
    const now = performance.now();
    const window = this.#lateAnswers?.windowMs ?? 0;
    let next = Infinity;
    for (const [streamId, call] of this.#pending) {
      if (call.deadline === undefined) continue;
      const failsAt = call.deadline <= now ? call.deadline + window : call.deadline;
      if (failsAt <= now) this.#settle(streamId)?.reject(deadlineExceeded(call));
      else if (failsAt < next) next = failsAt;
    }
    if (next !== Infinity && !this.#closed) this.#armDeadlineTimer(next);
  }

  /** An answer that came after its call's deadline (a timer that fired late, or the late-answer window) and is not taken. */
  #refusedAsLate(call: PendingCall): boolean {
    if (call.deadline === undefined) return false;
    const lateBy = performance.now() - call.deadline;
    if (lateBy <= 0 || !this.#lateAnswers) return false;
    return lateBy > this.#lateAnswers.windowMs || !this.#lateAnswers.take(lateBy);
  }

  /** Closes the connection; every pending call fails with TtrpcClosedError (its cause is err). */
  close(err?: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    const calls = [...this.#pending.keys()].map((id) => this.#settle(id)!);
    for (const c of calls) {
      const why = err ? `the connection closed: ${err.message}` : 'the connection closed before the answer came';
      c.reject(new TtrpcClosedError(why, { service: c.service, method: c.method, cause: err }));
    }
    if (this.#deadlineTimer) clearTimeout(this.#deadlineTimer);
    this.#deadlineTimer = undefined;
    this.#stream.destroy();
    this.emit('close', err);
  }

  /** Removes a pending call and its guards; undefined if it was already settled. */
  #settle(streamId: number): PendingCall | undefined {
    const call = this.#pending.get(streamId);
    if (!call) return undefined;
    this.#pending.delete(streamId);
    if (call.onAbort) call.signal!.removeEventListener('abort', call.onAbort);
    return call;
  }

  #onFrame({ header, payload, oversize }: DecodedFrame): void {
    // Answers for calls that timed out or were aborted arrive late and are dropped, as in Go.
    if (header.type !== MessageType.Response && header.type !== MessageType.Data) return;
    const call = this.#settle(header.streamId);
    if (!call) return;
    if (this.#refusedAsLate(call)) {
      call.reject(deadlineExceeded(call));
      return;
    }
    if (oversize) {
      call.reject(
        new TtrpcError(
          Code.ResourceExhausted,
          `response of ${header.length} bytes exceeds the maximum message size of ${this.#max}`,
          { service: call.service, method: call.method },
        ),
      );
      return;
    }
    if (header.type === MessageType.Data) {
      call.reject(
        new TtrpcError(Code.Internal, 'the server sent stream data on a unary call', {
          service: call.service,
          method: call.method,
        }),
      );
      return;
    }
    let answer;
    try {
      answer = decodeResponse(payload);
    } catch (err) {
      call.reject(
        new TtrpcError(Code.Internal, `undecodable response: ${(err as Error).message}`, {
          service: call.service,
          method: call.method,
          cause: err,
        }),
      );
      return;
    }
    const st = answer.status;
    if (st && st.code !== Code.OK)
      call.reject(new TtrpcError(st.code, st.message, { service: call.service, method: call.method }));
    else call.resolve(answer.payload as Buffer);
  }
}

function deadlineExceeded(call: PendingCall): TtrpcError {
  return new TtrpcError(Code.DeadlineExceeded, `no answer within ${call.timeoutMs} ms`, {
    service: call.service,
    method: call.method,
  });
}

function toKeyValues(md: Record<string, string>): KeyValue[] {
  return Object.entries(md).map(([key, value]) => ({ key, value }));
}
