// How long conformance waits on a node. The StopContainer of a container that exited by
// itself is waited for as critest waits (spec 3: 10 s once the exit is seen), not the
// minute the exit itself may take: iSulad never relays it, and that minute was most of a run.
import { describe, expect, it } from 'vitest';
import { timing } from '../../src/conformance/timing.js';

describe('conformance timing on a node', () => {
  it("waits a minute for a container's exit, then critest's 10 s for its StopContainer", () => {
    const t = timing(2000, 'node');
    expect(t.exitWaitMs).toBe(60_000);
    expect(t.exitEventWaitMs).toBe(10_000);
  });

  it('keeps every hold under the runtime request timeout, whatever it is', () => {
    for (const ms of [100, 2000, 10_000]) expect(timing(ms, 'node').holdBoundMs).toBeLessThan(ms);
  });
});
