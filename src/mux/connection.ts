import { Duplex } from 'node:stream';
import { MUX_HEADER_LENGTH } from './frame.js';

/** What a logical connection needs from its Mux. */
export interface MuxLink {
  /**
   * Frames each write (one message, or whole messages within GO_READ_BUFFER) and puts the
   * frames on the trunk together; cb runs once the trunk can take more. With `headroom`
   * (at least MUX_HEADER_LENGTH), each write's data starts after that many free bytes,
   * where a frame header can go without a copy.
   */
  send(connId: number, writes: Buffer[], cb: (err?: Error | null) => void, headroom?: number): void;
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
  // Set while a writeDirect() waits for the trunk to drain; the connection emits 'drain' then.
  #directBlocked = false;
  // Set during a writeDirect()'s send, to tell a callback the trunk made at once from a later one.
  #sending = false;
  #sentAtOnce = false;
  readonly #onDirectSent = (err?: Error | null): void => {
    if (err) {
      this.destroy(err);
      return;
    }
    if (this.#sending) {
      this.#sentAtOnce = true;
      return;
    }
    this.#directBlocked = false;
    this.emit('drain');
  };
  readonly #onLaterDirectSent = (err?: Error | null): void => {
    if (err) this.destroy(err);
  };

  /** A writer that leaves this many bytes free before each writeDirect() buffer saves the mux a copy. */
  readonly directHeadroom = MUX_HEADER_LENGTH;

  constructor(
    readonly connId: number,
    private readonly link: MuxLink,
  ) {
    super({ decodeStrings: true });
  }

  /**
   * Writes as write() does, each buffer one write framed the same way, but straight to the
   * trunk when nothing waits in this stream's own queue: the owner of a connection that
   * writes on every call (a ttrpc client or server) skips the Writable bookkeeping per
   * write (src/mux/README.md). Returns false when the trunk is full; the connection emits
   * 'drain' once it can take more, as after write(). Order is kept: with anything queued
   * in the stream, or the stream corked or ended, the buffers go through write().
   */
  writeDirect(writes: Buffer[], headroom = 0): boolean {
    if (this.writableLength > 0 || this.writableCorked > 0 || this.writableEnded || this.destroyed) {
      let ready = true;
      for (const w of writes) ready = this.write(headroom ? w.subarray(headroom) : w);
      return ready;
    }
    if (this.#directBlocked) {
      // Already waiting for 'drain': the trunk still takes the bytes (its own buffer grows,
      // as with write() past its mark); only the first blocked write arranges the 'drain'.
      this.link.send(this.connId, writes, this.#onLaterDirectSent, headroom);
      return false;
    }
    this.#sending = true;
    this.#sentAtOnce = false;
    try {
      this.link.send(this.connId, writes, this.#onDirectSent, headroom);
    } finally {
      this.#sending = false;
    }
    if (this.#sentAtOnce || this.destroyed) return !this.destroyed;
    this.#directBlocked = true;
    return false;
  }

  /**
   * Hands a payload to the reader, as push() does. A flowing reader with nothing queued gets
   * it at once through 'data', which is what push() does too, but without the read-ahead
   * push() schedules per chunk; otherwise push() and the stream's buffer and bound apply.
   * False when the reader is full (the mux then pauses the trunk).
   */
  deliver(payload: Buffer): boolean {
    if (
      this.readableFlowing === true &&
      this.readableLength === 0 &&
      !this.destroyed &&
      this.listenerCount('data') > 0
    ) {
      this.emit('data', payload);
      return true;
    }
    return this.push(payload);
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
