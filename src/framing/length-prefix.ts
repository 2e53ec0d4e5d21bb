// The one length-prefix decoder: a byte stream cut into frames of a fixed-size header
// that holds the payload's length (uint32, big-endian), then the payload. ttrpc (10-byte
// header, length first) and NRI's trunk multiplexer (8-byte header, length second) both
// decode with it, each a subclass that reads and judges its own header. (Subclasses, not
// a format object of callbacks: with both protocols in one process, calls through one
// object's differing closures are megamorphic and cost a fifth more per frame; methods of
// two classes stay inlinable.)
//
// Input chunks are queued, not concatenated, so that many small chunks cost linear time;
// a payload is a view into its chunk when it lies in one. Memory held is bounded by one
// frame plus one chunk: a header is judged before anything is kept for its payload, and
// a length never allocates before all its bytes are here. After a refused header the
// decoder stays failed and throws the same error again. Pure: no I/O.

/** Chunks shorter than this are copied into a staging buffer of STAGE_SIZE rather than queued. */
const SMALL_CHUNK = 512;
const STAGE_SIZE = 16 * 1024;
const EMPTY = Buffer.alloc(0);

/** How one protocol's frames are read: a subclass says what its header holds. */
export abstract class LengthPrefixDecoder<H, F> {
  /** Bytes of the header. */
  readonly #headerLength: number;
  /** Where in the header the payload's length is, as a uint32 big-endian. */
  readonly #lengthOffset: number;
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
  // The header read, while its payload is still coming (#want bytes of it).
  #pending = false;
  #header: H | undefined;
  #want = 0;
  #skipping = 0; // bytes of a skipped payload still to discard
  #failed = false;
  #failure: unknown;

  constructor(headerLength: number, lengthOffset: number) {
    this.#headerLength = headerLength;
    this.#lengthOffset = lengthOffset;
  }

  /**
   * What the protocol keeps of a header (bytes[offset .. offset + headerLength]), judged
   * before anything is kept for its payload: throw an error of the protocol's own to refuse
   * it (garbage on the wire); the decoder then stays failed with that error.
   */
  protected abstract readHeader(bytes: Buffer, offset: number, length: number): H;

  /** True: the payload is not kept but discarded as it arrives (an oversize frame the protocol lives through). */
  protected abstract skips(header: H, length: number): boolean;

  /** The frame handed out; `skipped` frames have an empty payload. */
  protected abstract frameOf(header: H, payload: Buffer, skipped: boolean): F;

  /** Bytes received but not yet handed out as frames (skipped bytes are not kept). */
  get buffered(): number {
    return this.#buffered;
  }

  /** True when the bytes seen so far end inside a frame (a clean end of stream needs false). */
  get midFrame(): boolean {
    return this.#pending || this.#skipping > 0 || this.#buffered > 0;
  }

  /** Payload bytes still to come for the frame under way; 0 while a header is being read. */
  get payloadRemaining(): number {
    if (this.#skipping > 0) return this.#skipping;
    return this.#pending ? this.#want - this.#buffered : 0;
  }

  /** Takes the next chunk (owned from now on: frames may share its memory); returns the frames it completes. */
  push(chunk: Buffer): F[] {
    if (this.#failed) throw this.#failure;
    const frames: F[] = [];
    if (this.#skipping > 0) {
      const dropped = Math.min(this.#skipping, chunk.length);
      this.#skipping -= dropped;
      chunk = chunk.subarray(dropped);
    }
    // Nothing buffered, the usual case (a chunk of whole frames): read in place.
    if (this.#buffered === 0 && !this.#pending && this.#skipping === 0 && chunk.length > 0) {
      chunk = this.#readInPlace(chunk, frames);
    }
    if (chunk.length > 0) this.#enqueue(chunk);
    for (;;) {
      if (!this.#pending) {
        if (this.#buffered < this.#headerLength) break;
        let header: H;
        try {
          header = this.#takeHeader();
        } catch (err) {
          this.#failed = true;
          this.#failure = err;
          this.#release();
          throw err;
        }
        if (this.skips(header, this.#want)) {
          frames.push(this.frameOf(header, EMPTY, true));
          this.#skip(this.#want);
          if (this.#skipping > 0) break;
          continue;
        }
        this.#pending = true;
        this.#header = header;
      }
      if (this.#buffered < this.#want) break;
      const header = this.#header as H;
      this.#pending = false;
      this.#header = undefined;
      frames.push(this.frameOf(header, this.#take(this.#want), false));
    }
    return frames;
  }

  /**
   * Hands out the frames that lie whole in `chunk`, their payloads views of it, without
   * queueing it; returns what is left (part of a frame, whose header may have been read:
   * then #pending). The same steps as push()'s loop, on one chunk.
   */
  #readInPlace(chunk: Buffer, frames: F[]): Buffer {
    const headerLength = this.#headerLength;
    let at = 0;
    while (chunk.length - at >= headerLength) {
      const want = chunk.readUInt32BE(at + this.#lengthOffset);
      let header: H;
      try {
        header = this.readHeader(chunk, at, want);
      } catch (err) {
        this.#failed = true;
        this.#failure = err;
        this.#release();
        throw err;
      }
      at += headerLength;
      if (this.skips(header, want)) {
        frames.push(this.frameOf(header, EMPTY, true));
        const dropped = Math.min(want, chunk.length - at);
        at += dropped;
        this.#skipping = want - dropped;
        continue; // a skip that outlasts the chunk ends the loop: nothing is left
      }
      if (chunk.length - at < want) {
        this.#pending = true;
        this.#header = header;
        this.#want = want;
        break;
      }
      frames.push(this.frameOf(header, chunk.subarray(at, at + want), false));
      at += want;
    }
    return at === 0 ? chunk : chunk.subarray(at);
  }

  /** Consumes a header's bytes (buffered already), read in place when they lie in one chunk; sets #want. */
  #takeHeader(): H {
    const headerLength = this.#headerLength;
    const first = this.#chunks[this.#first];
    let bytes: Buffer;
    let offset: number;
    if (first !== undefined && first.length - this.#head >= headerLength) {
      bytes = first;
      offset = this.#head;
      this.#head += headerLength;
      this.#buffered -= headerLength;
      if (this.#head === first.length) this.#shift();
    } else {
      bytes = this.#take(headerLength);
      offset = 0;
    }
    this.#want = bytes.readUInt32BE(offset + this.#lengthOffset);
    return this.readHeader(bytes, offset, this.#want);
  }

  /** Consumes n buffered bytes (n <= #buffered); a view when they lie in one chunk. */
  #take(n: number): Buffer {
    this.#buffered -= n;
    const first = this.#chunks[this.#first];
    if (n === 0 || first === undefined) return EMPTY;
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
