// A signal in the middle of a CRI call: the step that made the call is abandoned, but the
// pod the call makes is removed all the same. The runtime is the simulator on real NRI
// and CRI sockets; a second plugin holds RunPodSandbox so that the signal comes while the
// call is unanswered.
import { describe, expect, it } from 'vitest';
import { simulatedNode } from './simulated-node.js';

const node = simulatedNode();

describe('a signal while a CRI call is unanswered', () => {
  it('removes the pod the abandoned call made, and reports the run interrupted', async () => {
    const stop = new AbortController();
    const plan = await node.plan(['pod-lifecycle'], stop.signal);
    // Holds the run's first RunPodSandbox 150 ms (well under the 2 s request timeout),
    // and sends the signal as it starts holding.
    let held = false;
    const slow = await node.onRunPod('slow-run', async (pod) => {
      if (held || !pod.namespace?.startsWith('nrictl-conformance-')) return;
      held = true;
      stop.abort();
      await new Promise((r) => setTimeout(r, 150));
    });
    try {
      const report = await plan.run();
      expect(held).toBe(true);
      // The held call has taken effect by now (the run waited for it), or does soon: then
      // whatever it made must be gone.
      for (let i = 0; i < 100 && !node.sim.of('state-changed').some((e) => e.event === 'RunPodSandbox'); i++)
        await new Promise((r) => setTimeout(r, 10));
      expect(node.sim.of('state-changed').some((e) => e.event === 'RunPodSandbox')).toBe(true);
      expect(report.interrupted).toBe(true);
      expect(report.exitCode).toBe(1);
      expect(report.leftovers).toEqual([]);
      expect(node.sim.runtime.state.pods()).toEqual([]);
    } finally {
      plan.close();
      await slow.close();
    }
  });
});
