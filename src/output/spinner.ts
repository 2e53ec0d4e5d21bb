import type { Writable } from 'node:stream';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Spinner {
  /** Changes what is being waited for ("connecting..." -> "receiving..."); the clock keeps running. */
  update(label: string): void;
  /** Erases the line. Safe to call twice. */
  stop(): void;
}

/** A CI variable that means "this is CI": set, and not empty, "false" or "0". */
export function inCI(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/**
 * "⠹ connecting to /var/run/nri/nri.sock... 1.2s" on one rewritten line while a
 * command waits for the runtime, erased when done. Only on a terminal and outside
 * CI: a pipe, a log file or a CI log would keep every frame. Shown after `delayMs`,
 * so that a quick answer does not flash a line. The timer is unref'ed: it never
 * keeps the process alive.
 */
export function spinner(
  stream: Writable & { isTTY?: boolean },
  label: string,
  opts: { env?: NodeJS.ProcessEnv; everyMs?: number; delayMs?: number } = {},
): Spinner {
  if (!stream.isTTY || inCI(opts.env)) return { update() {}, stop() {} };
  const t0 = Date.now();
  const delayMs = opts.delayMs ?? 200;
  let frame = 0;
  let shown = false;
  let stopped = false;
  const draw = (): void => {
    const elapsed = Date.now() - t0;
    if (elapsed < delayMs) return;
    stream.write(`\r\x1b[K${FRAMES[frame++ % FRAMES.length]} ${label}... ${(elapsed / 1000).toFixed(1)}s`);
    shown = true;
  };
  const timer = setInterval(draw, opts.everyMs ?? 80);
  timer.unref();
  return {
    update(next) {
      label = next;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      if (shown) stream.write('\r\x1b[K');
    },
  };
}
