import { describe, expect, it } from 'vitest';
import { Aborted, untilAborted } from '../../src/session/deadline.js';

describe('untilAborted', () => {
  it('gives up at once on a signal that already fired, and leaves no unhandled rejection behind', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const controller = new AbortController();
      controller.abort();
      let fail!: (e: Error) => void;
      const work = new Promise<void>((_, reject) => (fail = reject));
      await expect(untilAborted(work, controller.signal)).rejects.toBeInstanceOf(Aborted);
      fail(new Error('the connection closed later'));
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it("passes the work's own result or failure through when the signal never fires", async () => {
    const signal = new AbortController().signal;
    await expect(untilAborted(Promise.resolve(7), signal)).resolves.toBe(7);
    await expect(untilAborted(Promise.reject(new Error('no')), signal)).rejects.toThrow('no');
  });
});
