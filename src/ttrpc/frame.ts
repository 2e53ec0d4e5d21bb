// The ttrpc frame: a 10-byte big-endian header (data length uint32, stream id uint32,
// message type uint8, flags uint8) followed by the data. Pure functions over Buffer.
import { LengthPrefixDecoder } from '../framing/index.js';
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

function isKnownMessageType(type: number): type is MessageType {
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
 * Splits a byte stream into ttrpc frames: the shared length-prefix decoder
 * (src/framing) reading ttrpc's header. Memory held is bounded by one frame plus one
 * chunk; a length over the limit is judged before anything is kept for it. After a
 * TtrpcProtocolError the decoder stays failed.
 */
export class FrameDecoder extends LengthPrefixDecoder<FrameHeader, DecodedFrame> {
  readonly #max: number;
  readonly #skipOversize: boolean;
  readonly #passUnknown: boolean;

  constructor(opts: FrameDecoderOptions = {}) {
    super(HEADER_LENGTH, 0);
    this.#max = opts.maxMessageLength ?? MESSAGE_LENGTH_MAX;
    this.#skipOversize = opts.oversize === 'skip';
    this.#passUnknown = opts.unknownTypes === 'pass';
  }

  protected readHeader(bytes: Buffer, offset: number): FrameHeader {
    const h = decodeHeader(bytes, offset);
    const known = isKnownMessageType(h.type);
    if (!known && !this.#passUnknown) {
      throw new TtrpcProtocolError(`unknown ttrpc message type ${h.type} (stream ${h.streamId}, length ${h.length})`);
    }
    if (h.length > this.#max && (!this.#skipOversize || !known || h.length >= SKIPPABLE_LENGTH_LIMIT)) {
      throw new TtrpcProtocolError(
        `ttrpc message length ${h.length} exceeds the maximum message size of ${this.#max} (stream ${h.streamId}, type ${h.type})`,
      );
    }
    return h;
  }

  protected skips(_header: FrameHeader, length: number): boolean {
    return length > this.#max;
  }

  protected frameOf(header: FrameHeader, payload: Buffer, skipped: boolean): DecodedFrame {
    return skipped ? { header, payload, oversize: true } : { header, payload };
  }
}
