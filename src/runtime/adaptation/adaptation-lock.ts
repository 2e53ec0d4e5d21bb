// The runtime's one big lock: the Go adaptation holds a mutex across every event it
// relays and every UpdateContainers request it applies, so a plugin's unsolicited update
// waits until the event in flight is done (and a plugin that awaits its own
// UpdateContainers inside an event handler stalls until the request timeout, as it would
// against containerd).
export class Lock {
  private tail: Promise<void> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
