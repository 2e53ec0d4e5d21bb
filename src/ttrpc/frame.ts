// The ttrpc frame: a 10-byte big-endian header (data length uint32, stream id uint32,
// message type uint8, flags uint8) followed by the data. Pure functions over Buffer.
import { TtrpcProtocolError } from './status.js';

export const HEADER_LENGTH = 10;
/** messageLengthMax of containerd/ttrpc: the largest data length either side accepts. */
export const MESSAGE_LENGTH_MAX = 4 << 20;
/**
 * The protocol reserves the first header byte (always zero while the limit is under
 * 16 MiB). An oversize length below this can be skipped like the Go side does; one at
 * or above it is taken for garbage rather than waited for.
 */
const SKIPPABLE_LENGTH_LIMIT = 1 << 24;
/** Chunks shorter than this are copied into a staging buffer of STAGE_SIZE rather than queued. */
const SMALL_CHUNK = 512;
const STAGE_SIZE = 16 * 1024;

export enum MessageType {
  Request = 1,
  Response = 2,
  Data = 3,
}

/** Flags of Request and Data frames (PROTOCOL.md); unary calls send none. */
export const FLAG_REMOTE_CLOSED = 0x1;
export const FLAG_REMOTE_OPEN = 0x2;
export const FLAG_NO_DATA = 0x4;

export interface FrameHeader {
  length: number;
  streamId: number;
  type: number;
  flags: number;
}

export interface DecodedFrame {
  header: FrameHeader;
  payload: Buffer;
  /** Set when the data was longer than the limit: its bytes were skipped and `payload` is empty. */
  oversize?: true;
}

export function isKnownMessageType(type: number): type is MessageType {
  return type === MessageType.Request || type === MessageType.Response || type === MessageType.Data;
}

export function encodeHeader(
  target: Buffer,
  offset: number,
  length: number,
  streamId: number,
  type: number,
  flags: number,
): void {
  target.writeUInt32BE(length, offset);
  target.writeUInt32BE(streamId, offset + 4);
  target[offset + 8] = type;
  target[offset + 9] = flags;
}

/** Header and data in one buffer, so that a frame goes out in one write. The caller enforces its message limit. */
export function encodeFrame(streamId: number, type: MessageType, payload: Uint8Array, flags = 0): Buffer {
  const frame = Buffer.allocUnsafe(HEADER_LENGTH + payload.length);
  encodeHeader(frame, 0, payload.length, streamId, type, flags);
  frame.set(payload, HEADER_LENGTH);
  return frame;
}

export function decodeHeader(b: Uint8Array, offset = 0): FrameHeader {
  if (b.length - offset < HEADER_LENGTH) {
    throw new TtrpcProtocolError(`a ttrpc header needs ${HEADER_LENGTH} bytes, got ${b.length - offset}`);
  }
  const length = ((b[offset] << 24) >>> 0) + (b[offset + 1] << 16) + (b[offset + 2] << 8) + b[offset + 3];
  const streamId = ((b[offset + 4] << 24) >>> 0) + (b[offset + 5] << 16) + (b[offset + 6] << 8) + b[offset + 7];
  return { length, streamId, type: b[offset + 8], flags: b[offset + 9] };
}

export interface FrameDecoderOptions {
  /** Largest data length accepted; default MESSAGE_LENGTH_MAX. */
  maxMessageLength?: number;
  /**
   * What to do with a frame of a known type whose length is over the limit but under
   * 16 MiB: 'throw' (default) treats it as a protocol error; 'skip' discards its bytes
   * as they arrive and yields it with `oversize: true`, so that the connection can
   * answer ResourceExhausted and live on, as containerd/ttrpc does.
   */
  oversize?: 'throw' | 'skip';
  /** Frames of a type other than request/response/data: 'throw' (default) or 'pass' them to the caller. */
  unknownTypes?: 'throw' | 'pass';
}

/**
 * Splits a byte stream into frames. Input chunks are queued, not concatenated, so that
 * many small chunks cost linear time; a frame's data is a view into its chunk when it
 * lies in one. Memory held is bounded by one frame plus one chunk: a length field is
 * checked against the limit before anything is kept for it, and never used to allocate
 * before all its bytes are here. After a TtrpcProtocolError the decoder stays failed.
 */
export class FrameDecoder {
  readonly #max: number;
  readonly #skipOversize: boolean;
  readonly #passUnknown: boolean;
  // A queue of chunks: #chunks[#first..] are live, #head is the offset into the first.
  #chunks: Array<Buffer | undefined> = [];
  #first = 0;
  #head = 0;
  // Small chunks are copied into a shared staging buffer, so that a frame trickling in
  // byte by byte costs bytes, not one Buffer object per byte.
  #stage: Buffer | undefined;
  #stageStart = 0; // where the queue's last entry begins in #stage, when it lives there
  #stageFill = 0;
  #lastIsStage = false;
  #buffered = 0;
  #header: FrameHeader | undefined;
  #skipping = 0; // bytes of an oversize frame still to discard
  #failure: TtrpcProtocolError | undefined;

  constructor(opts: FrameDecoderOptions = {}) {
    this.#max = opts.maxMessageLength ?? MESSAGE_LENGTH_MAX;
    this.#skipOversize = opts.oversize === 'skip';
    this.#passUnknown = opts.unknownTypes === 'pass';
  }

  /** Bytes received but not yet returned as frames (skipped bytes are not kept). */
  get buffered(): number {
    return this.#buffered;
  }

  push(chunk: Buffer): DecodedFrame[] {
    if (this.#failure) throw this.#failure;
    const frames: DecodedFrame[] = [];
    if (this.#skipping > 0) {
      const dropped = Math.min(this.#skipping, chunk.length);
      this.#skipping -= dropped;
      chunk = chunk.subarray(dropped);
    }
    if (chunk.length > 0) this.#enqueue(chunk);
    for (;;) {
      if (this.#header === undefined) {
        if (this.#buffered < HEADER_LENGTH) break;
        const header = this.#takeHeader();
        const problem = this.#check(header);
        if (problem) {
          this.#failure = new TtrpcProtocolError(problem);
          this.#release();
          throw this.#failure;
        }
        if (header.length > this.#max) {
          frames.push({ header, payload: Buffer.alloc(0), oversize: true });
          this.#skip(header.length);
          if (this.#skipping > 0) break;
          continue;
        }
        this.#header = header;
      }
      if (this.#buffered < this.#header.length) break;
      frames.push({ header: this.#header, payload: this.#take(this.#header.length) });
      this.#header = undefined;
    }
    return frames;
  }

  #check(h: FrameHeader): string | undefined {
    const known = isKnownMessageType(h.type);
    if (!known && !this.#passUnknown) {
      return `unknown ttrpc message type ${h.type} (stream ${h.streamId}, length ${h.length})`;
    }
    if (h.length <= this.#max) return undefined;
    if (!this.#skipOversize || !known || h.length >= SKIPPABLE_LENGTH_LIMIT) {
      return `ttrpc message length ${h.length} exceeds the maximum message size of ${this.#max} (stream ${h.streamId}, type ${h.type})`;
    }
    return undefined;
  }

  /** Consumes a header's bytes (buffered already), read in place when they lie in one chunk. */
  #takeHeader(): FrameHeader {
    const first = this.#chunks[this.#first];
    if (first !== undefined && first.length - this.#head >= HEADER_LENGTH) {
      const header = decodeHeader(first, this.#head);
      this.#buffered -= HEADER_LENGTH;
      this.#head += HEADER_LENGTH;
      if (this.#head === first.length) this.#shift();
      return header;
    }
    return decodeHeader(this.#take(HEADER_LENGTH));
  }

  /** Consumes n buffered bytes (n <= #buffered); a view when they lie in one chunk. */
  #take(n: number): Buffer {
    this.#buffered -= n;
    const first = this.#chunks[this.#first];
    if (n === 0 || first === undefined) return Buffer.alloc(0);
    if (first.length - this.#head >= n) {
      const out = first.subarray(this.#head, this.#head + n);
      this.#head += n;
      if (this.#head === first.length) this.#shift();
      return out;
    }
    const out = Buffer.allocUnsafe(n);
    let filled = 0;
    while (filled < n) {
      const c = this.#chunks[this.#first]!;
      const want = Math.min(n - filled, c.length - this.#head);
      c.copy(out, filled, this.#head, this.#head + want);
      filled += want;
      this.#head += want;
      if (this.#head === c.length) this.#shift();
    }
    return out;
  }

  /** Discards n bytes: what is buffered now, the rest as it arrives. */
  #skip(n: number): void {
    const now = Math.min(n, this.#buffered);
    let left = now;
    while (left > 0) {
      const c = this.#chunks[this.#first]!;
      const drop = Math.min(left, c.length - this.#head);
      this.#head += drop;
      left -= drop;
      if (this.#head === c.length) this.#shift();
    }
    this.#buffered -= now;
    this.#skipping = n - now;
  }

  #enqueue(chunk: Buffer): void {
    this.#buffered += chunk.length;
    if (chunk.length >= SMALL_CHUNK) {
      this.#chunks.push(chunk);
      this.#lastIsStage = false;
      return;
    }
    const live = this.#chunks.length > this.#first;
    if (
      this.#lastIsStage &&
      live &&
      this.#stage !== undefined &&
      this.#stage.length - this.#stageFill >= chunk.length
    ) {
      chunk.copy(this.#stage, this.#stageFill);
      this.#stageFill += chunk.length;
      this.#chunks[this.#chunks.length - 1] = this.#stage.subarray(this.#stageStart, this.#stageFill);
      return;
    }
    if (this.#stage === undefined || this.#stage.length - this.#stageFill < chunk.length) {
      // Bytes already handed out as views stay valid: a stage is never written twice.
      this.#stage = Buffer.allocUnsafe(STAGE_SIZE);
      this.#stageFill = 0;
    }
    this.#stageStart = this.#stageFill;
    chunk.copy(this.#stage, this.#stageFill);
    this.#stageFill += chunk.length;
    this.#chunks.push(this.#stage.subarray(this.#stageStart, this.#stageFill));
    this.#lastIsStage = true;
  }

  #shift(): void {
    this.#chunks[this.#first++] = undefined;
    this.#head = 0;
    if (this.#first === this.#chunks.length) {
      this.#chunks.length = 0;
      this.#first = 0;
      this.#lastIsStage = false;
    } else if (this.#first >= 1024 && this.#first * 2 >= this.#chunks.length) {
      this.#chunks = this.#chunks.slice(this.#first);
      this.#first = 0;
    }
  }

  #release(): void {
    this.#chunks = [];
    this.#first = 0;
    this.#head = 0;
    this.#buffered = 0;
    this.#stage = undefined;
    this.#lastIsStage = false;
  }
}
