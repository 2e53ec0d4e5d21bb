import type { Writable } from 'node:stream';

/**
 * A line on a terminal that rewrites itself ("receiving state... 2.1s") while
 * something long runs, and erases itself when done. Does nothing unless the stream
 * is a TTY, so pipes and logs stay clean. The timer is unref'ed: it never keeps the
 * process alive.
 */
export function progressLine(stream: Writable & { isTTY?: boolean }, text: (elapsedMs: number) => string, everyMs = 100): { stop(): void } {
  if (!stream.isTTY) return { stop() {} };
  const t0 = Date.now();
  let shown = false;
  const draw = (): void => {
    stream.write(`\r\x1b[K${text(Date.now() - t0)}`);
    shown = true;
  };
  const timer = setInterval(draw, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      if (shown) stream.write('\r\x1b[K');
    },
  };
}
