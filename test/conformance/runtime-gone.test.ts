// A runtime that goes away in the middle of a check leaves the check unjudged: an error,
// not a failure of the clause the step was about. The runtime is the simulator on real
// NRI and CRI sockets; a second plugin holds the check's RunPodSandbox and, meanwhile,
// the CRI server is shut down, so the call ends with the runtime gone. Nor can the run
// then say the node is clean: it says it could not list what it left.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConformancePlan } from '../../src/conformance/index.js';
import { SUBSCRIBED } from '../../src/conformance/test-plugin.js';
import { serveCri } from '../../src/runtime/sim/cri/serve.js';
import { ProbeSet } from '../../src/session/index.js';
import { conformanceView } from '../../src/views/index.js';
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

describe('a runtime that goes away during a step that needs its call to succeed', () => {
  it('is an error of the check, not a failure of its clause', async () => {
    const plan = await ConformancePlan.open({
      criSocket,
      nriSocket: sim.socketPath,
      pace: 'sim',
      terminal: false,
      ask: false,
      focus: ['pod-lifecycle'],
      signal: new AbortController().signal,
    });
    // The check's own pod (p-c1; the canary comes later, before the events are judged).
    let held = false;
    const gone = await ProbeSet.open({
      target: { socketPath: sim.socketPath },
      name: 'cri-gone',
      probes: [
        {
          index: '50',
          events: SUBSCRIBED,
          handlers: {
            runPodSandbox: async (pod) => {
              if (held || !pod.name?.startsWith('p-c')) return;
              held = true;
              await closeCri();
            },
          },
        },
      ],
    });
    try {
      const report = await plan.run();
      expect(held).toBe(true);
      expect(report.verdicts.map((v) => [v.name, v.status])).toEqual([['pod-lifecycle', 'error']]);
      expect(report.verdicts[0].reason).toMatch(/went away during RunPodSandbox/);
      // Nor is the node called clean: the last sweep could not list what the run left.
      expect(report.leftoversUnchecked?.reason).toMatch(/^the runtime did not answer the last listing \(/);
      expect(report.leftoversUnchecked?.command).toBe(
        `crictl --runtime-endpoint unix://${criSocket} pods --label nrictl.io/conformance-run=${report.runId}`,
      );
      expect(conformanceView.text(report, { width: 1000, wide: false })).toContain(
        `Not checked for leftovers: ${report.leftoversUnchecked?.reason}; pods of this run may remain: list them with\n  ${report.leftoversUnchecked?.command}`,
      );
      expect(report.exitCode).toBe(1);
    } finally {
      plan.close();
      await gone.close();
    }
  });
});
