// Frames written in the same tick go out together, in one write once the current
// microtasks have run: a burst of calls or answers costs one syscall instead of one
// each, and a lone frame waits no longer than the end of the tick. Small frames are
// joined into one buffer rather than corked, so that the batching holds on any Duplex
// (a mux connection turns each write into a trunk frame), not only on sockets.
import type { Duplex } from 'node:stream';

/** Up to this many bytes a batch is copied into one buffer; beyond, the frames are written one by one under cork. */
const JOIN_MAX = 64 * 1024;

export class BatchedWriter {
  #frames: Buffer[] = [];
  #bytes = 0;
  readonly #flush = () => this.flush();

  constructor(readonly stream: Duplex) {}

  write(frame: Buffer): void {
    if (this.#frames.length === 0) process.nextTick(this.#flush);
    this.#frames.push(frame);
    this.#bytes += frame.length;
  }

  flush(): void {
    const frames = this.#frames;
    const bytes = this.#bytes;
    if (frames.length === 0) return;
    this.#frames = [];
    this.#bytes = 0;
    const s = this.stream;
    if (s.destroyed) return;
    if (frames.length === 1) s.write(frames[0]);
    else if (bytes <= JOIN_MAX) s.write(Buffer.concat(frames, bytes));
    else {
      s.cork();
      for (const f of frames) s.write(f);
      s.uncork();
    }
  }
}
