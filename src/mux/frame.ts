import { GO_BUFIO_SIZE, LengthPrefixDecoder } from '../framing/index.js';
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
export const GO_READ_BUFFER = GO_BUFIO_SIZE;

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
 * Incremental decoder for the trunk byte stream: the shared length-prefix decoder
 * (src/framing) reading the mux header. push() takes ownership of the chunk: returned
 * payloads may share its memory, so the caller must not reuse it. A length over the
 * maximum is refused before anything is kept for it; after that MuxProtocolError the
 * decoder stays broken and rethrows it. `midFrame`: the bytes so far end inside a frame.
 */
export class MuxDecoder extends LengthPrefixDecoder<number, MuxFrame> {
  readonly #label: string;
  readonly #maxPayload: number;

  constructor(opts: { label?: string; maxPayload?: number } = {}) {
    super(MUX_HEADER_LENGTH, 4);
    this.#label = opts.label ?? 'NRI trunk';
    this.#maxPayload = Math.min(opts.maxPayload ?? MUX_PAYLOAD_MAX, MUX_PAYLOAD_MAX);
  }

  protected readHeader(bytes: Buffer, offset: number, length: number): number {
    const connId = bytes.readUInt32BE(offset);
    if (length > this.#maxPayload) {
      // The Go reader would allocate this many bytes and wait for them; we refuse instead.
      throw new MuxProtocolError(
        `${this.#label}: mux frame for connection ${connId} announces ${length} bytes, more than the ${this.#maxPayload} any NRI peer sends`,
      );
    }
    return connId;
  }

  protected skips(): boolean {
    return false;
  }

  protected frameOf(connId: number, payload: Buffer): MuxFrame {
    return { connId, payload };
  }
}
