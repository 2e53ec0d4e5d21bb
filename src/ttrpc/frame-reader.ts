// The reading half both ends of a connection share: a stream's bytes through a frame
// decoder to the owner, the owner closed with the stream, and reading held while the
// owner cannot take more (flow control).
import type { Duplex } from 'node:stream';
import { GO_BUFIO_SIZE } from '../framing/index.js';
import type { DecodedFrame, FrameDecoder } from './frame.js';
import { TtrpcProtocolError } from './status.js';

export interface FrameReaderOwner {
  readonly closed: boolean;
  close(err?: Error): void;
}

/**
 * Hands each decoded frame to onFrame until the owner is closed, which may happen
 * between two frames of one chunk. Garbage on the wire closes the owner with the
 * decoder's TtrpcProtocolError; the stream's end, close or error closes it too.
 *
 * hold(reason) stops delivering frames, and reading the stream, until every reason
 * given was release()d. Frames already decoded from the chunk at hand wait in order;
 * they are bounded by one chunk, and a paused stream lets the peer's writes block.
 */
export class FrameReader {
  readonly #stream: Duplex;
  readonly #decoder: FrameDecoder;
  readonly #owner: FrameReaderOwner;
  readonly #onFrame: (f: DecodedFrame) => void;
  readonly #holds = new Set<string>();
  // Decoded frames not yet delivered, from #next on. A handler may release a hold while
  // a delivery is under way, so the position lives here, not in a loop variable.
  #waiting: DecodedFrame[] = [];
  #next = 0;
  readonly #strictGoFraming: boolean;

  /**
   * @param strictGoFraming read as a Go peer over a message-preserving transport must: a
   *   chunk it could not take closes the owner with a TtrpcProtocolError (goReadCapacity).
   */
  constructor(
    stream: Duplex,
    decoder: FrameDecoder,
    owner: FrameReaderOwner,
    onFrame: (f: DecodedFrame) => void,
    strictGoFraming = false,
  ) {
    this.#strictGoFraming = strictGoFraming;
    this.#stream = stream;
    this.#decoder = decoder;
    this.#owner = owner;
    this.#onFrame = onFrame;
    stream.on('data', (chunk: Buffer) => this.#receive(chunk));
    // Kept after close too: a destroyed stream may still report an error, which must not go unhandled.
    stream.on('error', (err: Error) => owner.close(err));
    stream.on('end', () => owner.close());
    stream.on('close', () => owner.close());
    if (stream.destroyed) owner.close();
  }

  get held(): boolean {
    return this.#holds.size > 0;
  }

  hold(reason: string): void {
    if (this.#holds.size === 0) this.#stream.pause();
    this.#holds.add(reason);
  }

  release(reason: string): void {
    if (!this.#holds.delete(reason) || this.#holds.size > 0) return;
    this.#deliver();
    if (this.#holds.size === 0 && !this.#owner.closed) this.#stream.resume();
  }

  #receive(chunk: Buffer): void {
    if (this.#owner.closed) return;
    const capacity = this.#strictGoFraming ? goReadCapacity(this.#decoder) : Infinity;
    if (chunk.length > capacity) {
      this.#owner.close(
        new TtrpcProtocolError(
          `the peer sent a chunk of ${chunk.length} bytes where a Go ttrpc reader offers ${capacity}: ` +
            'a Go peer fails that read with "cannot allocate memory" and drops the connection (messages must be framed as Go frames them)',
        ),
      );
      return;
    }
    try {
      const frames = this.#decoder.push(chunk);
      if (this.#waiting.length === 0) this.#waiting = frames;
      else for (const f of frames) this.#waiting.push(f);
    } catch (err) {
      this.#owner.close(err instanceof Error ? err : new TtrpcProtocolError(String(err)));
      return;
    }
    this.#deliver();
  }

  #deliver(): void {
    while (this.#next < this.#waiting.length && this.#holds.size === 0 && !this.#owner.closed) {
      this.#onFrame(this.#waiting[this.#next++]);
    }
    if (this.#next >= this.#waiting.length) {
      this.#waiting = [];
      this.#next = 0;
    }
  }
}

/**
 * The largest chunk a Go ttrpc peer could take next, where the transport keeps write
 * boundaries (NRI's multiplexer hands over one frame per Read and fails the Read with
 * ENOMEM when the frame is larger than the buffer offered). Go's ttrpc reads through a
 * 4096-byte bufio.Reader, which is empty whenever the transport is read again: a header
 * read offers the whole buffer; a body read offers a remainder of 4096 bytes or more
 * directly, a smaller one through the buffer. So the decoder's position says it all.
 * test/go-peer holds the Go reader this is checked against (test/ttrpc/go-read-check.test.ts).
 */
export function goReadCapacity(decoder: FrameDecoder): number {
  return Math.max(decoder.payloadRemaining, GO_BUFIO_SIZE);
}
