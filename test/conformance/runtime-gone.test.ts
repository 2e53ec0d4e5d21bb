// A runtime that goes away in the middle of a check leaves the check unjudged: an error,
// not a failure of the clause the step was about. The runtime is the simulator on real
// NRI and CRI sockets; a second plugin holds the check's RunPodSandbox and, meanwhile,
// the CRI server is shut down, so the call ends with the runtime gone. Nor can the run
// then say the node is clean: it says it could not list what it left, and finds from
// the node's view (the simulator's process table) the sandbox the runtime never answered for.
import { describe, expect, it } from 'vitest';
import { conformanceView } from '../../src/views/index.js';
import { simulatedNode } from './simulated-node.js';

const node = simulatedNode();

describe('a runtime that goes away during a step that needs its call to succeed', () => {
  it('is an error of the check, not a failure of its clause', async () => {
    const plan = await node.plan(['pod-lifecycle'], new AbortController().signal);
    // The check's own pod (p-c1; the canary comes later, before the events are judged).
    let held = false;
    const gone = await node.onRunPod('cri-gone', async (pod) => {
      if (held || !pod.name?.startsWith('p-c')) return;
      held = true;
      await node.closeCri();
    });
    try {
      const report = await plan.run();
      expect(held).toBe(true);
      expect(report.verdicts.map((v) => [v.name, v.status])).toEqual([['pod-lifecycle', 'error']]);
      expect(report.verdicts[0].reason).toMatch(/went away during RunPodSandbox/);
      // Nor is the node called clean: the last sweep could not list what the run left.
      expect(report.leftoversUnchecked?.reason).toMatch(/^the runtime did not answer the last listing \(/);
      expect(report.leftoversUnchecked?.command).toBe(
        `crictl --runtime-endpoint unix://${node.criSocket} pods --label nrictl.io/conformance-run=${report.runId}`,
      );
      expect(conformanceView.text(report, { width: 1000, wide: false })).toContain(
        `Not checked for leftovers: ${report.leftoversUnchecked?.reason}; pods of this run may remain: list them with\n  ${report.leftoversUnchecked?.command}`,
      );
      // What the run made is found from the node's view all the same: the pod whose
      // RunPodSandbox the runtime never answered still runs its shim and pause process.
      const podId = report.leftovers.find((l) => l.kind === 'node')?.id ?? '';
      expect(report.beyondCri).toEqual({ checked: true, limits: [] });
      const onNode = report.leftovers.filter((l) => l.kind === 'node');
      expect(onNode).toEqual([
        {
          kind: 'node',
          id: podId,
          name: expect.stringMatching(/^\/usr\/local\/bin\/containerd-shim-runc-v2 pid \d+, \/pause pid \d+$/),
          // No runtime answers to remove it through: its processes, the pause before its shim.
          command: expect.stringMatching(/^kill -KILL \d+ \d+$/),
        },
      ]);
      const pids = [...onNode[0].name.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));
      expect(onNode[0].command).toBe(`kill -KILL ${pids[1]} ${pids[0]}`);
      expect(node.sim.runtime.node.processes().map((p) => p.pid)).toEqual(pids);
      expect(report.exitCode).toBe(1);
    } finally {
      plan.close();
      await gone.close();
    }
  });
});
