import { Duplex } from 'node:stream';

/** What a logical connection needs from its Mux. */
export interface MuxLink {
  /**
   * Frames each write (one message, or whole messages within GO_READ_BUFFER) and puts the
   * frames on the trunk together; cb runs once the trunk can take more.
   */
  send(connId: number, writes: Buffer[], cb: (err?: Error | null) => void): void;
  /** The reader wants more: lift any pause this connection put on the trunk. */
  wantMore(connId: number): void;
  /** The connection is gone: later frames for it are dropped, as the Go mux does. */
  forget(connId: number, conn: MuxConnection): void;
}

/**
 * One logical connection. end() only ends our writing (nothing goes on the wire: the
 * Go mux has no per-connection close signal); destroy() forgets the connection.
 * Neither touches the trunk.
 */
export class MuxConnection extends Duplex {
  constructor(
    readonly connId: number,
    private readonly link: MuxLink,
  ) {
    super({ decodeStrings: true });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.link.send(this.connId, [chunk], cb);
  }

  // Writes that queued up (a corked batch, or writes made while the trunk was full) reach
  // the mux together, still one write per frame group, so the trunk takes them in one go.
  override _writev(chunks: Array<{ chunk: Buffer }>, cb: (err?: Error | null) => void): void {
    this.link.send(
      this.connId,
      chunks.map((c) => c.chunk),
      cb,
    );
  }

  override _read(): void {
    this.link.wantMore(this.connId);
  }

  override _final(cb: (err?: Error | null) => void): void {
    cb();
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.link.forget(this.connId, this);
    cb(err);
  }
}
