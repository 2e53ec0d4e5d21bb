// A wait between two attempts that stop() can cut short: a reconnect's backoff must not
// keep a command that is stopping alive for up to its longest wait.

export class InterruptibleWait {
  private cut: (() => void) | undefined;

  /** Resolves after `ms`, or at once when interrupt() is called meanwhile. */
  for(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      const cut = (): void => done();
      this.cut = cut;
      function done(): void {
        clearTimeout(t);
        resolve();
      }
    });
  }

  /** Ends the wait under way, if any. */
  interrupt(): void {
    this.cut?.();
  }
}
