// The reading and writing behaviour of containerd/nri pkg/net/multiplex (mux.go), written
// independently of src/mux so that a test peer does not share nrictl's assumptions:
// - a reader loop takes whole frames off the trunk (8-byte header, then io.ReadFull of
//   the payload) and queues each one on its logical connection;
// - conn.Read(buf) hands over exactly one queued frame and fails with ENOMEM, dropping
//   the frame, when the caller's buffer cannot hold it (`cap(buf) < len(msg)`);
// - conn.Write(b) puts header and payload on the trunk as one frame, whatever its size.
import type { Socket } from 'node:net';

export class GoEnomemError extends Error {
  readonly code = 'ENOMEM';
  constructor(
    readonly frameLength: number,
    readonly capacity: number,
  ) {
    super(`cannot allocate memory (a frame of ${frameLength} bytes offered a ${capacity}-byte buffer)`);
  }
}

export class GoMuxClosedError extends Error {
  constructor(why: string) {
    super(`mux closed: ${why}`);
  }
}

interface Waiter {
  resolve(frame: Buffer): void;
  reject(err: Error): void;
}

/** One logical connection, as a Go `net.Conn` from Mux.Open. */
export class GoMuxConn {
  private readonly queue: Buffer[] = [];
  private waiter: Waiter | undefined;
  private failure: Error | undefined;
  /** Every frame this connection received, by length: what the peer put on the wire. */
  readonly frameLengths: number[] = [];

  constructor(
    readonly id: number,
    private readonly mux: GoMux,
  ) {}

  /** Frames received and not yet read. */
  get queued(): number {
    return this.queue.length;
  }

  /** conn.Read with a buffer of `capacity` bytes: one frame, or ENOMEM. */
  async read(capacity: number): Promise<Buffer> {
    const frame = await this.next();
    if (frame.length > capacity) {
      this.mux.enomem.push({ connId: this.id, frameLength: frame.length, capacity });
      throw new GoEnomemError(frame.length, capacity);
    }
    return frame;
  }

  write(payload: Buffer): void {
    this.mux.writeFrame(this.id, payload);
  }

  /** @internal the mux's reader loop */
  deliver(frame: Buffer): void {
    this.frameLengths.push(frame.length);
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w.resolve(frame);
    } else {
      this.queue.push(frame);
    }
  }

  /** @internal */
  fail(err: Error): void {
    this.failure ??= err;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w.reject(err);
    }
  }

  private next(): Promise<Buffer> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }
}

export class GoMux {
  private readonly conns = new Map<number, GoMuxConn>();
  // Bytes received and not yet framed, kept as chunks: joined only once a frame is whole.
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Every ENOMEM a Go reader would have hit on this trunk. */
  readonly enomem: Array<{ connId: number; frameLength: number; capacity: number }> = [];
  closed = false;

  constructor(readonly trunk: Socket) {
    trunk.on('data', (chunk: Buffer) => this.onData(chunk));
    trunk.on('close', () => this.close('trunk closed'));
    trunk.on('error', () => this.close('trunk failed'));
  }

  open(id: number): GoMuxConn {
    let conn = this.conns.get(id);
    if (!conn) {
      conn = new GoMuxConn(id, this);
      this.conns.set(id, conn);
    }
    return conn;
  }

  writeFrame(id: number, payload: Buffer): void {
    if (this.closed) return;
    const header = Buffer.alloc(8);
    header.writeUInt32BE(id, 0);
    header.writeUInt32BE(payload.length, 4);
    this.trunk.write(header);
    this.trunk.write(Buffer.from(payload));
  }

  close(why = 'closed'): void {
    if (this.closed) return;
    this.closed = true;
    for (const conn of this.conns.values()) conn.fail(new GoMuxClosedError(why));
    this.trunk.destroy();
  }

  private onData(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.buffered < 8) return;
      const head = this.take(8, false);
      const length = head.readUInt32BE(4);
      if (this.buffered < 8 + length) return;
      this.take(8, true);
      const payload = Buffer.from(this.take(length, true));
      // Frames for connections nobody opened are dropped, as the Go reader does.
      this.conns.get(head.readUInt32BE(0))?.deliver(payload);
    }
  }

  /** The first n buffered bytes (n <= buffered), removed from the buffer when `consume`. */
  private take(n: number, consume: boolean): Buffer {
    if (this.chunks[0].length < n) {
      let length = 0;
      let k = 0;
      while (length < n) length += this.chunks[k++].length;
      this.chunks.splice(0, k, Buffer.concat(this.chunks.slice(0, k), length));
    }
    const first = this.chunks[0];
    if (consume) {
      if (first.length > n) this.chunks[0] = first.subarray(n);
      else this.chunks.shift();
      this.buffered -= n;
    }
    return first.subarray(0, n);
  }
}
