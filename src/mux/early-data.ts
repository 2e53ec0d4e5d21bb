import { MuxProtocolError } from './errors.js';
import { MUX_PAYLOAD_MAX } from './frame.js';

/**
 * Payloads that arrived for connections nobody has opened yet.
 *
 * The Go runtime and stub open their connections before they unblock the reader, so
 * they never face this; we start reading at once and must hold what a fast peer sends
 * before open(). Bounded like the Go per-connection read queue (256 chunks), and in
 * bytes to one largest frame, because the keeper is whoever is slow to call open().
 */
export const EARLY_DATA_MAX_BYTES = MUX_PAYLOAD_MAX;
export const EARLY_DATA_MAX_CHUNKS = 256;

export class EarlyData {
  private readonly byConn = new Map<number, Buffer[]>();
  private bytes = 0;
  private chunks = 0;

  constructor(
    private readonly label: string,
    private readonly maxBytes = EARLY_DATA_MAX_BYTES,
    private readonly maxChunks = EARLY_DATA_MAX_CHUNKS,
  ) {}

  get size(): { bytes: number; chunks: number } {
    return { bytes: this.bytes, chunks: this.chunks };
  }

  /** Keeps a copy (a view would pin the whole trunk read it came from); throws when over the bound. */
  keep(connId: number, payload: Buffer): void {
    if (payload.length === 0) return;
    if (this.bytes + payload.length > this.maxBytes || this.chunks + 1 > this.maxChunks) {
      throw new MuxProtocolError(
        `${this.label}: peer sent more than ${this.maxBytes} bytes / ${this.maxChunks} chunks ` +
          `for connections not opened yet (connection ${connId})`,
      );
    }
    let list = this.byConn.get(connId);
    if (!list) this.byConn.set(connId, (list = []));
    list.push(Buffer.from(payload));
    this.bytes += payload.length;
    this.chunks += 1;
  }

  take(connId: number): Buffer[] {
    const list = this.byConn.get(connId) ?? [];
    this.byConn.delete(connId);
    for (const b of list) this.bytes -= b.length;
    this.chunks -= list.length;
    return list;
  }

  clear(): void {
    this.byConn.clear();
    this.bytes = 0;
    this.chunks = 0;
  }
}
