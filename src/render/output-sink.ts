import { createWriteStream } from 'node:fs';
import { isatty } from 'node:tty';
import type { Writable } from 'node:stream';

/**
 * Where a stream of events goes when the process must stay responsive while output
 * stalls. Node writes to a terminal synchronously, so a paused terminal (Ctrl-S, a
 * scrolled-back tmux pane) would stop the event loop, and with it the answers to the
 * runtime. For a terminal we write through an fs stream instead: its writes run in
 * libuv's thread pool, so a stalled terminal holds one pool thread, not the loop.
 * Pipes and sockets are already asynchronous and keep process.stdout (whose
 * 'drain' gives the backpressure the bounded queue needs); files never stall.
 */
export function nonBlockingStdout(): Writable {
  if (isatty(1)) return createWriteStream('', { fd: 1, autoClose: false });
  return process.stdout;
}
