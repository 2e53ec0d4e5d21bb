// Frames written in the same tick go out together once the current microtasks have run:
// a burst of calls or answers costs one syscall instead of one each, and a lone frame
// waits no longer than the end of the tick.
//
// Joining is bounded by what a Go peer can read. Over a transport that keeps write
// boundaries (NRI's multiplexer turns each write into a frame) Go's ttrpc reads through a
// 4096-byte bufio.Reader and cannot take a frame larger than that where a message starts.
// So whole frames are joined only while the join stays within JOIN_MAX; a bigger frame
// is written alone, and the transport cuts it the way Go's bufio.Writer does (see
// src/mux/README.md). On a plain socket the bound costs nothing but a few more writes,
// which cork() still hands to the kernel together.
import type { Duplex } from 'node:stream';
import { GO_BUFIO_SIZE } from '../framing/index.js';

/**
 * A stream that can take writes without its Writable queue (a logical connection of
 * src/mux): each buffer is still one write, in order, and false asks the writer to wait
 * for 'drain' as write() would. Found by duck typing so that this layer needs no mux.
 *
 * `directHeadroom`: the bytes of its own framing the stream puts before each write (the
 * mux's frame header). A writer that leaves that many bytes free at the start of each
 * buffer, and says so with writeDirect's `headroom`, lets the stream frame it in place
 * instead of copying it into a frame of its own.
 */
export interface DirectWritable {
  readonly directHeadroom?: number;
  writeDirect(writes: Buffer[], headroom?: number): boolean;
}

function isDirect(s: Duplex): s is Duplex & DirectWritable {
  return typeof (s as Partial<DirectWritable>).writeDirect === 'function';
}

/** Go's default bufio size: the largest write a Go peer's first Read takes whole. */
export const JOIN_MAX = GO_BUFIO_SIZE;

export class BatchedWriter {
  #frames: Buffer[] = [];
  #blocked = false;
  readonly #flush = () => this.flush();
  readonly #onDrain = () => {
    this.#blocked = false;
    this.onBackpressure?.(false);
  };

  readonly #direct: boolean;

  /**
   * Bytes every frame handed to write() must leave free at its start, for the stream's own
   * framing (DirectWritable.directHeadroom); 0 for a plain stream.
   */
  readonly headroom: number;

  /**
   * @param onBackpressure told true when the stream refused more (its buffer is full: the
   *   peer is not reading), false once it drained. The owner stops producing meanwhile.
   */
  constructor(
    readonly stream: Duplex,
    private readonly onBackpressure?: (blocked: boolean) => void,
  ) {
    this.#direct = isDirect(stream);
    this.headroom = this.#direct ? ((stream as Duplex & DirectWritable).directHeadroom ?? 0) : 0;
  }

  /** Queues a frame: its first `headroom` bytes are left free for the stream's framing. */
  write(frame: Buffer): void {
    if (this.#frames.length === 0) process.nextTick(this.#flush);
    this.#frames.push(frame);
  }

  flush(): void {
    const frames = this.#frames;
    if (frames.length === 0) return;
    this.#frames = [];
    const s = this.stream;
    if (s.destroyed) return;
    let ready: boolean;
    if (this.#direct) {
      const room = this.headroom;
      const writes =
        frames.length === 1
          ? frames
          : [...joinable(frames, room)].map((g) => (g.length === 1 ? g[0] : joined(g, room)));
      ready = (s as Duplex & DirectWritable).writeDirect(writes, room);
    } else if (frames.length === 1) {
      ready = s.write(frames[0]);
    } else {
      s.cork();
      ready = true;
      for (const group of joinable(frames)) ready = s.write(group.length === 1 ? group[0] : Buffer.concat(group));
      s.uncork();
    }
    if (!ready && !this.#blocked) {
      this.#blocked = true;
      s.once('drain', this.#onDrain);
      this.onBackpressure?.(true);
    }
  }
}

/**
 * Consecutive frames in groups of at most JOIN_MAX bytes (not counting each frame's
 * `headroom`); a frame larger than that stands alone.
 */
function* joinable(frames: Buffer[], headroom = 0): Generator<Buffer[]> {
  let group: Buffer[] = [];
  let bytes = 0;
  for (const f of frames) {
    const size = f.length - headroom;
    if (group.length > 0 && bytes + size > JOIN_MAX) {
      yield group;
      group = [];
      bytes = 0;
    }
    group.push(f);
    bytes += size;
  }
  if (group.length > 0) yield group;
}

/** The frames of a group as one buffer, with `headroom` free bytes before them as before each. */
function joined(group: Buffer[], headroom: number): Buffer {
  if (headroom === 0) return Buffer.concat(group);
  let size = headroom;
  for (const f of group) size += f.length - headroom;
  const out = Buffer.allocUnsafe(size);
  let at = headroom;
  for (const f of group) at += f.copy(out, at, headroom);
  return out;
}
