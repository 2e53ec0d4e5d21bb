import { MuxProtocolError } from './errors.js';

// Facts from containerd/nri pkg/net/multiplex (mux.go, ttrpc.go).
export const MUX_HEADER_LENGTH = 8;
/** Conn id 0 is reserved: the Go mux refuses to open it and so silently drops its frames. */
export const RESERVED_CONN = 0;
/** Runtime is the ttrpc client, the plugin serves. */
export const PLUGIN_SERVICE_CONN = 1;
/** The plugin is the ttrpc client, the runtime serves. */
export const RUNTIME_SERVICE_CONN = 2;
/**
 * Largest payload one frame carries: a ttrpc header (10) plus the ttrpc message limit (4 MiB).
 * The Go writer splits bigger writes into chunks of exactly this size; no Go writer ever
 * sends more, so a bigger length on the wire can only be garbage.
 */
export const MUX_PAYLOAD_MAX = 10 + (4 << 20);

/**
 * What a Go peer can take in the first frame of a message. Go's ttrpc reads a logical
 * connection through a bufio.Reader of this size, and a Go mux connection hands over one
 * whole frame per Read or fails it with ENOMEM; see README.md, "Framing for Go peers".
 */
export const GO_READ_BUFFER = 4096;

const CONN_ID_MAX = 0xffff_ffff;

export interface MuxFrame {
  connId: number;
  payload: Buffer;
}

/** The 8-byte frame header: connection id and payload length, both uint32 big-endian. */
export function encodeMuxHeader(connId: number, length: number): Buffer {
  const header = Buffer.allocUnsafe(MUX_HEADER_LENGTH);
  writeMuxHeader(header, connId, length);
  return header;
}

/** Writes the frame header into the first 8 bytes of `target`. */
export function writeMuxHeader(target: Buffer, connId: number, length: number): void {
  if (!Number.isInteger(connId) || connId < 0 || connId > CONN_ID_MAX) {
    throw new RangeError(`mux connection id ${connId} is not a uint32`);
  }
  if (!Number.isInteger(length) || length < 0 || length > MUX_PAYLOAD_MAX) {
    throw new RangeError(`mux payload length ${length} is outside 0..${MUX_PAYLOAD_MAX}`);
  }
  target.writeUInt32BE(connId, 0);
  target.writeUInt32BE(length, 4);
}

/**
 * Incremental decoder for the trunk byte stream. push() takes ownership of the chunk:
 * returned payloads may share its memory, so the caller must not reuse it.
 * After the first MuxProtocolError the decoder stays broken and rethrows it.
 */
export class MuxDecoder {
  private readonly header = Buffer.alloc(MUX_HEADER_LENGTH);
  private headerFill = 0;
  // Set while collecting a payload whose header has been read.
  private connId = -1;
  private want = 0;
  // Pieces of the current payload, kept as views to copy only once when complete.
  private parts: Buffer[] = [];
  private partsLength = 0;
  private failure: MuxProtocolError | undefined;

  private readonly label: string;
  private readonly maxPayload: number;

  constructor(opts: { label?: string; maxPayload?: number } = {}) {
    this.label = opts.label ?? 'NRI trunk';
    this.maxPayload = Math.min(opts.maxPayload ?? MUX_PAYLOAD_MAX, MUX_PAYLOAD_MAX);
  }

  /** True when the bytes seen so far end inside a frame (a clean end of stream needs false). */
  get midFrame(): boolean {
    return this.headerFill > 0 || this.connId >= 0;
  }

  push(chunk: Buffer): MuxFrame[] {
    if (this.failure) throw this.failure;
    const frames: MuxFrame[] = [];
    let pos = 0;
    while (pos < chunk.length) {
      if (this.connId < 0) {
        // Fast path: a whole header in the chunk needs no copy.
        if (this.headerFill === 0 && chunk.length - pos >= MUX_HEADER_LENGTH) {
          this.startPayload(chunk.readUInt32BE(pos), chunk.readUInt32BE(pos + 4));
          pos += MUX_HEADER_LENGTH;
        } else {
          const n = Math.min(MUX_HEADER_LENGTH - this.headerFill, chunk.length - pos);
          chunk.copy(this.header, this.headerFill, pos, pos + n);
          this.headerFill += n;
          pos += n;
          if (this.headerFill < MUX_HEADER_LENGTH) break;
          this.headerFill = 0;
          this.startPayload(this.header.readUInt32BE(0), this.header.readUInt32BE(4));
        }
        if (this.want === 0) frames.push(this.finishPayload(Buffer.alloc(0)));
        continue;
      }
      const n = Math.min(this.want - this.partsLength, chunk.length - pos);
      const piece = chunk.subarray(pos, pos + n);
      pos += n;
      if (this.parts.length === 0 && n === this.want) {
        frames.push(this.finishPayload(piece));
        continue;
      }
      this.parts.push(piece);
      this.partsLength += n;
      if (this.partsLength === this.want) {
        frames.push(this.finishPayload(Buffer.concat(this.parts, this.partsLength)));
      }
    }
    return frames;
  }

  private startPayload(connId: number, length: number): void {
    if (length > this.maxPayload) {
      // The Go reader would allocate this many bytes and wait for them; we refuse instead.
      this.failure = new MuxProtocolError(
        `${this.label}: mux frame for connection ${connId} announces ${length} bytes, more than the ${this.maxPayload} any NRI peer sends`,
      );
      throw this.failure;
    }
    this.connId = connId;
    this.want = length;
  }

  private finishPayload(payload: Buffer): MuxFrame {
    const frame = { connId: this.connId, payload };
    this.connId = -1;
    this.want = 0;
    this.parts = [];
    this.partsLength = 0;
    return frame;
  }
}
