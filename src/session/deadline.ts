// Waiting on a promise until the caller's signal fires (Ctrl-C): the deadlines
// themselves are the SDK's (registration, and each call's).

import type { ErrorKind } from '../errors/index.js';
export class Aborted extends Error {
  override readonly name = 'Aborted';
  readonly kind: ErrorKind = 'failed';
}

/** The promise, or a rejection with Aborted once the signal fires. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => {}); // nobody waits for it any more; its failure must not go unhandled
    return Promise.reject(new Aborted('cancelled'));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Aborted('cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
