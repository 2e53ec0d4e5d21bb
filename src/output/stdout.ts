import { createWriteStream } from 'node:fs';
import { isatty } from 'node:tty';
import type { Writable } from 'node:stream';
import { makeTerminalWritesAsync } from './terminal-output.js';

/**
 * Where a stream of events goes when the process must stay responsive while output
 * stalls. Node writes to a terminal synchronously, so a paused terminal (Ctrl-S, a
 * scrolled-back tmux pane) would stop the event loop, and with it the answers to the
 * runtime. For a terminal we switch process.stdout to asynchronous writes (see
 * terminal-output.ts): its 'drain' gives the bounded queue its backpressure and
 * process.exit still works while the terminal is stuck. Only where that switch is
 * unavailable do we fall back to an fs stream, whose writes run in libuv's thread
 * pool: that keeps the loop free too, but a write stuck in a pool thread holds up
 * process exit until the terminal reads again.
 * Pipes and sockets are already asynchronous and keep process.stdout; files never stall.
 */
export function nonBlockingStdout(): Writable {
  if (!isatty(1) || makeTerminalWritesAsync(process.stdout)) return process.stdout;
  return createWriteStream('', { fd: 1, autoClose: false });
}
