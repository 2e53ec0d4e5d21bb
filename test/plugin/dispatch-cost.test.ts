// The SDK races every handler against the call's deadline. It does so without an
// AbortController per call (ctx.onAbort): one was the largest single cost of a dispatch.
// A handler that reads ctx.signal still gets one, lazily.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { simPerTest, waitForPlugin } from '../runtime/helpers.js';

const perTest = simPerTest();
const Real = globalThis.AbortController;
let made = 0;

beforeEach(() => {
  made = 0;
  globalThis.AbortController = class extends Real {
    constructor() {
      super();
      made++;
    }
  };
});
afterEach(() => {
  globalThis.AbortController = Real;
});

describe('SDK dispatch', () => {
  it('answers events without making an AbortController per call', async () => {
    const sim = await perTest.start({ pods: [{ id: 'p', name: 'p', namespace: 'n' }], containers: [] });
    let handled = 0;
    await perTest.plugin('quiet', '10', { createContainer: () => void handled++ }).start();
    await waitForPlugin(sim, '10-quiet');
    made = 0;
    for (let i = 0; i < 20; i++)
      expect((await sim.runtime.createContainer('p', { id: `c${i}`, name: `c${i}` })).ok).toBe(true);
    expect(handled).toBe(20);
    expect(made).toBe(0);
  });
});
