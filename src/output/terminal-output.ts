import type { WriteStream } from 'node:tty';

/**
 * Makes writes to a terminal asynchronous, so that a terminal that stops reading
 * (Ctrl-S, a scrolled-back tmux pane, a stuck ssh session) fills our output
 * queue instead of freezing the event loop, and with it the replies the runtime
 * is waiting for. Node writes to terminals synchronously on Linux; pipes and
 * files are already asynchronous and are left alone.
 *
 * libuv reopens a terminal under its own file description for this process, so
 * the switch does not leave the shell's terminal non-blocking. Returns whether
 * the stream was switched.
 */
export function makeTerminalWritesAsync(stream: NodeJS.WriteStream | WriteStream): boolean {
  if (!stream.isTTY) return false;
  // Not in Node's typings: the TTY handle's setBlocking, which tty.WriteStream itself calls with true.
  const handle = (stream as unknown as { _handle?: { setBlocking?: (blocking: boolean) => number } })._handle;
  if (typeof handle?.setBlocking !== 'function') return false;
  return handle.setBlocking(false) === 0;
}
