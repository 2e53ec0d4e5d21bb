// How long the plugin's handlers keep the runtime waiting. A runtime closes a plugin
// whose answer comes later than its request timeout (the Go adaptation's isFatalError,
// iSulad likewise), and the plugin learns only that the connection closed, often as
// "write EPIPE" when its late answer goes out. When the connection closes while a handler
// runs, or just after one, that ran that long, the clock names it, so the error can say
// why the runtime dropped the plugin.

export interface HandlerRun {
  /** The handler's name as the author wrote it: "synchronize", "createContainer". */
  handler: string;
  /** performance.now() when the request reached the plugin, and when it was answered. */
  startedAt: number;
  endedAt?: number;
}

export interface LateHandler {
  handler: string;
  /** How long it ran, or had run when the connection closed. */
  ms: number;
  /** Still running when the connection closed. */
  running: boolean;
}

/**
 * Our clock starts when the request reaches us, the runtime's when it sent it: ours is
 * short of the runtime's by the way over, and by however long our event loop was busy.
 */
const CLOCK_SLACK = 0.05;
/**
 * A handler that blocks the event loop past the timeout is answered first and learns of
 * the close after: the close is seen within a few turns. Later than this it is something
 * else.
 */
const RIGHT_AFTER_MS = 1000;

export class HandlerClock {
  readonly #running = new Set<HandlerRun>();
  /** Called once when a run ends: settle() waits on them. */
  readonly #onEnd = new Map<HandlerRun, Array<() => void>>();
  #last: HandlerRun | undefined;

  /** A handler is running now. */
  get busy(): boolean {
    return this.#running.size > 0;
  }

  begin(handler: string): HandlerRun {
    const run: HandlerRun = { handler, startedAt: performance.now() };
    this.#running.add(run);
    return run;
  }

  end(run: HandlerRun): void {
    run.endedAt = performance.now();
    this.#running.delete(run);
    this.#last = run;
    const waiters = this.#onEnd.get(run);
    this.#onEnd.delete(run);
    for (const w of waiters ?? []) w();
  }

  /**
   * late(), for a connection that has just closed, when the answer may still come. The
   * runtime's clock of a request starts before ours, by however long the request took to
   * reach the handler: on a busy machine, without bound. So a close that comes while a
   * handler runs but, by our clock, short of the timeout does not clear the handler: we
   * wait until it answers or reaches the timeout by our clock too. One that then reaches
   * it is named (it runs past the timeout: the runtime was right to drop it); one that
   * answers first is not, and nothing is claimed. Never waits longer than the timeout.
   */
  async settle(requestTimeoutMs: number): Promise<LateHandler | undefined> {
    const found = this.late(requestTimeoutMs);
    const runs = [...this.#running];
    if (found || runs.length === 0) return found;
    const bound = requestTimeoutMs * (1 - CLOCK_SLACK);
    const reached = Math.min(...runs.map((r) => r.startedAt)) + bound;
    await new Promise<void>((resolve) => {
      let left = runs.length;
      let timer: NodeJS.Timeout | undefined;
      // A timer fires by the event loop's millisecond clock, which runs up to a
      // millisecond or two behind performance.now(): it can fire short of the bound by
      // ours. So the bound is checked by our clock when it fires, and waited on again.
      const wait = (): void => {
        const ms = reached - performance.now();
        timer = ms > 0 ? setTimeout(wait, Math.ceil(ms)) : undefined;
        if (!timer) resolve();
      };
      for (const run of runs) {
        const list = this.#onEnd.get(run) ?? [];
        list.push(() => {
          if (--left > 0) return;
          clearTimeout(timer);
          resolve();
        });
        this.#onEnd.set(run, list);
      }
      wait();
    });
    const now = performance.now();
    let worst: LateHandler | undefined;
    for (const run of runs) {
      const running = run.endedAt === undefined;
      const ms = (run.endedAt ?? now) - run.startedAt;
      if (ms >= bound && (!worst || ms > worst.ms)) worst = { handler: run.handler, ms, running };
    }
    return worst;
  }

  /**
   * The handler that made the runtime give up, when one did: running now, or answered
   * less than a second ago, and for at least the request timeout (less the slack of our
   * clock). Undefined when no handler ran that long: the runtime closed the connection
   * for another reason, and nothing is claimed.
   */
  late(requestTimeoutMs: number, now = performance.now()): LateHandler | undefined {
    const bound = requestTimeoutMs * (1 - CLOCK_SLACK);
    let worst: LateHandler | undefined;
    for (const run of this.#running) {
      const ms = now - run.startedAt;
      if (ms >= bound && (!worst || ms > worst.ms)) worst = { handler: run.handler, ms, running: true };
    }
    if (worst) return worst;
    const last = this.#last;
    if (last?.endedAt === undefined || now - last.endedAt > RIGHT_AFTER_MS) return undefined;
    const ms = last.endedAt - last.startedAt;
    return ms >= bound ? { handler: last.handler, ms, running: false } : undefined;
  }
}
