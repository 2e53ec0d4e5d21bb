import { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';

export interface BoundedQueueOptions<T> {
  /** Items held at most while the output is behind; later ones are dropped and counted. */
  capacity: number;
  /** Turns an item into output. Runs in the writer, not in push(), so push stays cheap. */
  render: (item: T) => string | Uint8Array;
  /**
   * The line written in place of dropped items once the output catches up, and at
   * end() for drops not yet reported. Return undefined to write nothing (and report
   * through the 'dropped' event instead, e.g. on stderr for a JSON stream).
   */
  dropNotice?: (dropped: number) => string | Uint8Array | undefined;
  /** Items written per turn of the event loop, so a fast output cannot starve the socket that feeds us. */
  batch?: number;
  /**
   * For a source that is not a runtime's reply path (the simulator's script): an item
   * pushed while nothing is queued and the output has room is rendered and written at
   * once, as a plain write would be, instead of on a later turn of the event loop.
   */
  writeThrough?: boolean;
}

export const defaultDropNotice = (dropped: number): string =>
  `${dropped} ${dropped === 1 ? 'event' : 'events'} dropped: output could not keep up\n`;

/**
 * The output queue between a source that must never wait (the runtime, which
 * blocks container creation until every plugin answers) and a Writable that may
 * stall (a paused terminal, a pipe into a slow reader). push() only stores a
 * reference and returns; a writer drains the queue into the Writable, stopping at
 * its backpressure ('drain'). When the queue is full, items are dropped and
 * counted; the count is written in place when the output catches up.
 *
 * Memory is bounded by `capacity` items plus the Writable's highWaterMark.
 *
 * Events: 'dropped' (count: number) each time drops are reported; 'error' is never
 * emitted: a failed output (EPIPE...) turns every later item into a drop and is
 * kept in `outputError`.
 */
export class BoundedOutputQueue<T> extends EventEmitter {
  readonly capacity: number;
  private readonly ring: Array<T | undefined>;
  private head = 0;
  private size = 0;
  private readonly render: (item: T) => string | Uint8Array;
  private readonly dropNotice: (dropped: number) => string | Uint8Array | undefined;
  private readonly batch: number;
  private readonly writeThrough: boolean;
  private scheduled = false;
  private waitingForDrain = false;
  private ended = false;
  private unreported = 0;
  private flushWaiters: Array<() => void> = [];
  private roomWaiters: Array<() => void> = [];
  private counts = { pushed: 0, written: 0, dropped: 0 };
  outputError: Error | undefined;

  constructor(
    private readonly out: Writable,
    opts: BoundedQueueOptions<T>,
  ) {
    super();
    if (!Number.isInteger(opts.capacity) || opts.capacity < 1)
      throw new RangeError(`queue capacity must be a positive integer, got ${opts.capacity}`);
    this.capacity = opts.capacity;
    this.ring = new Array<T | undefined>(opts.capacity);
    this.render = opts.render;
    this.dropNotice = opts.dropNotice ?? defaultDropNotice;
    this.batch = opts.batch ?? 256;
    this.writeThrough = opts.writeThrough ?? false;
    out.on('error', this.onOutputError);
    out.once('close', this.onOutputClose);
  }

  /** Items accepted so far, including those still queued. */
  get pushed(): number {
    return this.counts.pushed;
  }
  /** Items handed to the Writable. */
  get written(): number {
    return this.counts.written;
  }
  /** Items dropped because the queue was full, the output failed or the queue had ended. */
  get dropped(): number {
    return this.counts.dropped;
  }
  /** Items waiting to be written. */
  get pending(): number {
    return this.size;
  }

  /**
   * Queues an item, or drops and counts it when the queue is full. Never writes (but
   * with writeThrough), never waits: the writer runs on a later turn of the event loop.
   * Returns false when the item was dropped.
   */
  push(item: T): boolean {
    this.counts.pushed++;
    if (this.size >= this.capacity || this.outputError || this.ended) {
      this.counts.dropped++;
      this.unreported++;
      return false;
    }
    if (this.writeThrough && this.size === 0 && this.unreported === 0 && !this.waitingForDrain && !this.scheduled) {
      this.counts.written++;
      if (!this.out.write(this.render(item), this.afterWrite)) {
        this.waitingForDrain = true;
        this.out.once('drain', this.onDrain);
      }
      return true;
    }
    this.ring[(this.head + this.size) % this.capacity] = item;
    this.size++;
    this.schedule();
    return true;
  }

  /**
   * Undefined while the queue is at most half full, or takes nothing more (the output
   * failed, the queue ended); else a promise of that. A source that can wait (the
   * simulator's script, whose runtime is only simulated) waits here for a slow reader
   * instead of losing records, and pays nothing while the reader keeps up.
   */
  room(): Promise<void> | undefined {
    if (this.hasRoom()) return undefined;
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  private hasRoom(): boolean {
    return this.outputError !== undefined || this.ended || this.size <= this.capacity / 2;
  }

  /**
   * Resolves true once everything queued so far has been written and the Writable
   * has passed it on (nothing buffered), or false when timeoutMs passes first or
   * the output failed. Without a timeout it waits as long as the output does.
   */
  flush(timeoutMs?: number): Promise<boolean> {
    if (this.isIdle()) return Promise.resolve(!this.outputError);
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        if (timer) clearTimeout(timer);
        resolve(!this.outputError && this.isIdle());
      };
      this.flushWaiters.push(done);
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.flushWaiters = this.flushWaiters.filter((w) => w !== done);
          resolve(false);
        }, timeoutMs);
        timer.unref();
      }
      this.schedule();
    });
  }

  /**
   * Stops accepting items, writes what is queued and a last drop notice, and
   * resolves with the counts. Leaves the Writable open (it is usually stdout).
   */
  async end(timeoutMs?: number): Promise<{ pushed: number; written: number; dropped: number; complete: boolean }> {
    this.ended = true;
    this.settle();
    const complete = await this.flush(timeoutMs);
    // The Writable outlives the queue (stdout): nothing of the queue stays on it.
    this.out.off('error', this.onOutputError);
    this.out.off('close', this.onOutputClose);
    return { ...this.counts, complete };
  }

  private isIdle(): boolean {
    if (this.outputError) return true;
    return this.size === 0 && this.unreported === 0 && !this.waitingForDrain && this.out.writableLength === 0;
  }

  private schedule(): void {
    if (this.scheduled || this.waitingForDrain) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    if (this.outputError) return this.settle();
    this.out.cork();
    let room = true;
    let n = 0;
    while (room && this.size > 0 && n < this.batch) {
      const item = this.ring[this.head] as T;
      this.ring[this.head] = undefined;
      this.head = (this.head + 1) % this.capacity;
      this.size--;
      n++;
      this.counts.written++;
      // The last write of a batch reports when the output has taken everything so far.
      room =
        this.size === 0 || n === this.batch
          ? this.out.write(this.render(item), this.afterWrite)
          : this.out.write(this.render(item));
    }
    // Caught up: the queue is empty and the output still has room.
    if (room && this.size === 0 && this.unreported > 0) {
      const dropped = this.unreported;
      this.unreported = 0;
      const notice = this.dropNotice(dropped);
      if (notice !== undefined && notice.length > 0) room = this.out.write(notice, this.afterWrite);
      this.emit('dropped', dropped);
    }
    this.out.uncork();
    if (this.outputError) return this.settle();
    if (!room) {
      this.waitingForDrain = true;
      this.out.once('drain', this.onDrain);
    } else if (this.size > 0) {
      this.schedule();
    }
    this.settle();
  }

  private readonly afterWrite = (): void => {
    this.settle();
  };

  private readonly onDrain = (): void => {
    if (!this.waitingForDrain) return;
    this.waitingForDrain = false;
    this.out.off('drain', this.onDrain);
    this.pump();
  };

  private readonly onOutputClose = (): void => this.onOutputError(new Error('output closed'));

  private readonly onOutputError = (err: Error): void => {
    if (this.outputError) return;
    this.outputError = err;
    // What cannot be written any more counts as dropped.
    this.counts.dropped += this.size;
    this.unreported += this.size;
    this.ring.fill(undefined);
    this.size = 0;
    this.waitingForDrain = false;
    this.settle();
  };

  private settle(): void {
    if (this.roomWaiters.length > 0 && this.hasRoom()) {
      const waiters = this.roomWaiters;
      this.roomWaiters = [];
      for (const w of waiters) w();
    }
    if (this.flushWaiters.length === 0 || !this.isIdle()) return;
    const waiters = this.flushWaiters;
    this.flushWaiters = [];
    for (const w of waiters) w();
  }
}
