// An answer read after the request timeout is a timeout, whenever the simulator's deadline
// timer gets to run: in the Go runtime the call's context expires at the deadline, so a
// plugin that holds Synchronize exactly the request timeout (critest's specs 19 and 20,
// 2 s, the default) is dropped every time. Here the timer running late is what a loaded
// machine does and a test cannot make happen on cue: the clock (performance.now) is moved
// past the deadline while the plugin answers, and the real timer has not fired yet.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ofType, simPerTest, waitFor } from './helpers.js';

const sims = simPerTest();
afterEach(() => void vi.restoreAllMocks());

/** A plugin whose answer to `hook` is read once the clock says the request timeout has passed. */
async function lateOn(hook: 'synchronize' | 'runPodSandbox', timeoutMs: number) {
  const sim = await sims.start(undefined, { requestTimeoutMs: timeoutMs });
  const now = performance.now.bind(performance);
  let late = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => now() + late);
  const answerLate = () => void (late = timeoutMs + 50);
  const s = sims.plugin(
    'slow',
    '10',
    hook === 'synchronize'
      ? { synchronize: answerLate, runPodSandbox: () => undefined }
      : { runPodSandbox: answerLate },
  );
  return { sim, s };
}

describe('an answer read after the request timeout', () => {
  it('Synchronize: the plugin is dropped for the timeout, as the Go runtime drops it', async () => {
    const { sim, s } = await lateOn('synchronize', 1000);
    await s.start().catch(() => undefined);
    const failed = await waitFor('the Synchronize failed', () =>
      ofType(sim.events, 'error').find((e) => e.event === 'Synchronize'),
    );
    expect(failed.message).toBe(
      'failed to synchronize plugin 10-slow: plugin 10-slow failed to handle Synchronize: no answer within the request timeout (1000 ms)',
    );
    expect(sim.runtime.plugins()).toEqual([]);
  });

  it('an event: the plugin is dropped and the call goes on without it', async () => {
    const { sim, s } = await lateOn('runPodSandbox', 1000);
    await s.start();
    await waitFor('the plugin live', () => sim.runtime.plugins().length === 1);
    await sim.runtime.runPodSandbox({ id: 'p1', name: 'p1', namespace: 'ns', uid: 'u1' });
    const dropped = await waitFor('the plugin dropped', () => ofType(sim.events, 'dropped')[0]);
    expect(dropped.reason).toMatch(/failed to handle RunPodSandbox: no answer within the request timeout \(1000 ms\)/);
    expect(sim.runtime.state.pod('p1')).toBeDefined();
  });
});
