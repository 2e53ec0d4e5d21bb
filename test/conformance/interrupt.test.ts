// A signal in the middle of a CRI call: the step that made the call is abandoned, but the
// pod the call makes is removed all the same. The runtime is the simulator on real NRI
// and CRI sockets; a second plugin holds RunPodSandbox so that the signal comes while the
// call is unanswered.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConformancePlan } from '../../src/conformance/index.js';
import { SUBSCRIBED } from '../../src/conformance/test-plugin.js';
import { serveCri } from '../../src/runtime/sim/cri/serve.js';
import { ProbeSet } from '../../src/session/index.js';
import { startRuntime, type SimHandle } from '../commands/nri-cli.js';

let sim: SimHandle;
let criSocket: string;
let closeCri: () => Promise<void>;

beforeAll(async () => {
  sim = await startRuntime({}, { runtimeName: 'containerd', runtimeVersion: 'v2.3.4' });
  const served = await serveCri(sim.runtime, path.join(path.dirname(sim.socketPath), 'cri.sock'), {
    runtimeName: 'containerd',
    runtimeVersion: 'v2.3.4',
  });
  criSocket = served.socketPath;
  closeCri = () => served.close();
});
afterAll(async () => {
  await closeCri?.();
  await sim?.stop();
});

describe('a signal while a CRI call is unanswered', () => {
  it('removes the pod the abandoned call made, and reports the run interrupted', async () => {
    const stop = new AbortController();
    const plan = await ConformancePlan.open({
      criSocket,
      nriSocket: sim.socketPath,
      pace: 'sim',
      terminal: false,
      ask: false,
      focus: ['pod-lifecycle'],
      signal: stop.signal,
    });
    // Holds the run's first RunPodSandbox 150 ms (well under the 2 s request timeout),
    // and sends the signal as it starts holding.
    let held = false;
    const slow = await ProbeSet.open({
      target: { socketPath: sim.socketPath },
      name: 'slow-run',
      probes: [
        {
          index: '50',
          events: SUBSCRIBED,
          handlers: {
            runPodSandbox: async (pod) => {
              if (held || !pod.namespace?.startsWith('nrictl-conformance-')) return;
              held = true;
              stop.abort();
              await new Promise((r) => setTimeout(r, 150));
            },
          },
        },
      ],
    });
    try {
      const report = await plan.run();
      expect(held).toBe(true);
      // The held call has taken effect by now (the run waited for it), or does soon: then
      // whatever it made must be gone.
      for (let i = 0; i < 100 && !sim.of('state-changed').some((e) => e.event === 'RunPodSandbox'); i++)
        await new Promise((r) => setTimeout(r, 10));
      expect(sim.of('state-changed').some((e) => e.event === 'RunPodSandbox')).toBe(true);
      expect(report.interrupted).toBe(true);
      expect(report.exitCode).toBe(1);
      expect(report.leftovers).toEqual([]);
      expect(sim.runtime.state.pods()).toEqual([]);
    } finally {
      plan.close();
      await slow.close();
    }
  });
});
