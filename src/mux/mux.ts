import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { MuxConnection, type MuxLink } from './connection.js';
import { EarlyData } from './early-data.js';
import { MuxClosedError, MuxProtocolError } from './errors.js';
import {
  GO_READ_BUFFER,
  MUX_HEADER_LENGTH,
  MUX_PAYLOAD_MAX,
  MuxDecoder,
  RESERVED_CONN,
  encodeMuxHeader,
  writeMuxHeader,
  type MuxFrame,
} from './frame.js';

export interface MuxOptions {
  /** Names the trunk in error messages (a socket path, a plugin name). */
  label?: string;
}

// Below this size header and payload go out as one buffer (one syscall); above it the
// copy costs more than the second write.
const COALESCE_MAX = 64 * 1024;
// A clean close ends the trunk so queued frames still reach the peer; a peer that never
// reads must not keep the socket alive for ever.
const END_GRACE_MS = 5000;

/**
 * NRI's trunk multiplexer: logical connections over one stream, each chunk prefixed by
 * (conn id, length). Opening a connection is local only, as in Go: nothing is signalled.
 *
 * Emits 'close' (err?: Error) once, when the trunk is gone for whatever reason.
 */
export class Mux extends EventEmitter {
  readonly label: string;
  private readonly decoder: MuxDecoder;
  private readonly conns = new Map<number, MuxConnection>();
  // Opened once and since destroyed: their frames are dropped, like the Go mux does.
  private readonly forgotten = new Set<number>();
  private readonly early: EarlyData;
  // Connections whose readers are full; the trunk is paused while any is.
  private readonly congested = new Set<number>();
  private drainWaiters: Array<(err?: Error | null) => void> = [];
  private isClosed = false;
  private droppedFrames = 0;
  private droppedBytes = 0;

  private readonly link: MuxLink = {
    send: (connId, writes, cb, headroom) => this.send(connId, writes, cb, headroom),
    wantMore: (connId) => this.uncongest(connId),
    forget: (connId, conn) => this.forget(connId, conn),
  };
  private readonly onData = (chunk: Buffer) => this.receive(chunk);
  private readonly onDrain = () => this.releaseWriters();
  private readonly onEnd = () => {
    if (this.decoder.midFrame) {
      this.close(new MuxProtocolError(`${this.label}: trunk ended in the middle of a frame`));
    } else {
      this.close();
    }
  };
  private readonly onError = (err: Error) => {
    if (this.isClosed) return; // late EPIPE and the like after we closed
    this.close(new MuxClosedError(`${this.label}: trunk failed: ${err.message}`, undefined, { cause: err }));
  };
  private readonly onTrunkClose = () => this.close();

  constructor(
    private readonly trunk: Duplex,
    opts: MuxOptions = {},
  ) {
    super();
    this.label = opts.label ?? 'NRI trunk';
    this.decoder = new MuxDecoder({ label: this.label });
    this.early = new EarlyData(this.label);
    trunk.on('data', this.onData);
    trunk.on('drain', this.onDrain);
    trunk.on('end', this.onEnd);
    trunk.on('error', this.onError);
    trunk.on('close', this.onTrunkClose);
    if (trunk.destroyed) queueMicrotask(() => this.close());
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Frames dropped because nobody can ever read them (conn 0, or a connection destroyed locally). */
  get dropped(): { frames: number; bytes: number } {
    return { frames: this.droppedFrames, bytes: this.droppedBytes };
  }

  /** The logical connection; the same object while it lives. Data that came before is delivered first. */
  open(connId: number): MuxConnection {
    if (!Number.isInteger(connId) || connId <= RESERVED_CONN || connId > 0xffff_ffff) {
      throw new RangeError(
        `${this.label}: cannot open mux connection ${connId}: ids are 1..4294967295 (0 is reserved)`,
      );
    }
    if (this.isClosed) {
      throw new MuxClosedError(`${this.label}: cannot open connection ${connId}, the trunk is closed`, connId);
    }
    const existing = this.conns.get(connId);
    if (existing) return existing;
    const conn = new MuxConnection(connId, this.link);
    this.conns.set(connId, conn);
    this.forgotten.delete(connId);
    for (const payload of this.early.take(connId)) this.deliverTo(conn, payload);
    return conn;
  }

  /**
   * Closes the trunk; every logical connection is destroyed with err, or a MuxClosedError.
   * Without err it ends the trunk so that queued frames still reach the peer, for at most
   * END_GRACE_MS; with err, or through destroy(), it tears the trunk down at once.
   */
  close(err?: Error): void {
    this.shut(err, err !== undefined);
  }

  /**
   * Closes the trunk at once: like close(), but queued frames are dropped instead of
   * waited for. For a call that timed out or a user who stopped the program: a peer that
   * stopped reading must not hold the process for the grace period.
   */
  destroy(err?: Error): void {
    this.shut(err, true);
  }

  private shut(err: Error | undefined, now: boolean): void {
    if (this.isClosed) return;
    this.isClosed = true;
    const trunk = this.trunk;
    trunk.off('data', this.onData);
    trunk.off('drain', this.onDrain);
    trunk.off('end', this.onEnd);
    trunk.off('close', this.onTrunkClose);
    // onError stays attached: a closing socket may still report EPIPE/ECONNRESET.

    const conns = [...this.conns.values()];
    this.conns.clear();
    this.early.clear();
    this.congested.clear();
    for (const conn of conns) {
      conn.destroy(
        err ?? new MuxClosedError(`${this.label}: trunk closed under connection ${conn.connId}`, conn.connId),
      );
    }
    this.releaseWriters(err ?? new MuxClosedError(`${this.label}: trunk closed`));

    if (now || trunk.destroyed || trunk.writableFinished) {
      trunk.destroy();
    } else {
      const guard = setTimeout(() => trunk.destroy(), END_GRACE_MS);
      guard.unref();
      trunk.once('finish', () => {
        clearTimeout(guard);
        trunk.destroy();
      });
      trunk.end();
    }
    this.emit('close', err);
  }

  private receive(chunk: Buffer): void {
    let frames: MuxFrame[];
    try {
      frames = this.decoder.push(chunk);
    } catch (err) {
      this.close(err instanceof Error ? err : new MuxProtocolError(`${this.label}: ${String(err)}`));
      return;
    }
    for (const frame of frames) {
      if (this.isClosed) return;
      this.route(frame);
    }
  }

  private route({ connId, payload }: MuxFrame): void {
    const conn = this.conns.get(connId);
    if (conn) {
      this.deliverTo(conn, payload);
    } else if (connId === RESERVED_CONN || this.forgotten.has(connId)) {
      this.droppedFrames += 1;
      this.droppedBytes += payload.length;
    } else {
      try {
        this.early.keep(connId, payload);
      } catch (err) {
        this.close(err as MuxProtocolError);
      }
    }
  }

  private deliverTo(conn: MuxConnection, payload: Buffer): void {
    // An empty frame is legal (Go sends one for an empty Write) but carries nothing to a stream.
    if (payload.length === 0) return;
    if (!conn.deliver(payload) && !conn.destroyed) this.congest(conn.connId);
  }

  private congest(connId: number): void {
    if (this.congested.size === 0) this.trunk.pause();
    this.congested.add(connId);
  }

  private uncongest(connId: number): void {
    if (!this.congested.delete(connId)) return;
    if (this.congested.size === 0 && !this.isClosed) this.trunk.resume();
  }

  private forget(connId: number, conn: MuxConnection): void {
    if (this.isClosed || this.conns.get(connId) !== conn) return;
    this.conns.delete(connId);
    this.forgotten.add(connId);
    this.uncongest(connId);
  }

  private send(connId: number, writes: Buffer[], cb: (err?: Error | null) => void, headroom = 0): void {
    if (this.isClosed) {
      cb(new MuxClosedError(`${this.label}: cannot write to connection ${connId}, the trunk is closed`, connId));
      return;
    }
    let ready = true;
    const corked = writes.length > 1;
    if (corked) this.trunk.cork();
    for (const data of writes) ready = this.writeFramed(connId, data, headroom);
    if (corked) this.trunk.uncork();
    if (ready) cb();
    else this.drainWaiters.push(cb);
  }

  /**
   * One write is one message (or a batch of whole ones within GO_READ_BUFFER), framed as
   * Go's bufio.Writer flushes it so that a Go reader can take every frame (README.md): at
   * most GO_READ_BUFFER bytes first, then the rest. An empty write still makes a frame, as
   * in Go. Returns what the trunk's last write returned. A message that fits one frame
   * and comes with `headroom` gets its header in place, in front of it.
   */
  private writeFramed(connId: number, buffer: Buffer, headroom = 0): boolean {
    const data = headroom > 0 ? buffer.subarray(headroom) : buffer;
    if (headroom >= MUX_HEADER_LENGTH && data.length <= GO_READ_BUFFER) {
      const frame = buffer.subarray(headroom - MUX_HEADER_LENGTH);
      writeMuxHeader(frame, connId, data.length);
      return this.trunk.write(frame);
    }
    let ready: boolean;
    let offset = 0;
    let limit = GO_READ_BUFFER;
    do {
      const piece = data.subarray(offset, offset + limit);
      offset += piece.length;
      limit = MUX_PAYLOAD_MAX;
      if (piece.length <= COALESCE_MAX) {
        // The header goes straight into the frame: no buffer of its own, one copy in all.
        const frame = Buffer.allocUnsafe(MUX_HEADER_LENGTH + piece.length);
        writeMuxHeader(frame, connId, piece.length);
        piece.copy(frame, MUX_HEADER_LENGTH);
        ready = this.trunk.write(frame);
      } else {
        this.trunk.write(encodeMuxHeader(connId, piece.length));
        ready = this.trunk.write(piece);
      }
    } while (offset < data.length);
    return ready;
  }

  private releaseWriters(err?: Error): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const cb of waiters) cb(err);
  }
}
