// A bound on one wait: the promise, or a rejection once `ms` have passed, or once the
// caller's signal fires. The timer is unref()ed: it only guards.

export class DeadlineExceeded extends Error {
  override readonly name = 'DeadlineExceeded';
  constructor(readonly ms: number) {
    super(`no answer within ${ms}ms`);
  }
}

export class Aborted extends Error {
  override readonly name = 'Aborted';
}

export function withDeadline<T>(work: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Aborted('cancelled'));
      return;
    }
    const timer = setTimeout(() => done(() => reject(new DeadlineExceeded(ms))), ms);
    timer.unref();
    const onAbort = (): void => done(() => reject(new Aborted('cancelled')));
    signal?.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    function done(settle: () => void): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    }
    work.then(
      (v) => done(() => resolve(v)),
      (e: unknown) => done(() => reject(e)),
    );
  });
}
