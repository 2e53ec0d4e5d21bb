// C of nri-contract.md: RunPodSandbox's contract.
import type { Check } from '../check.js';
import type { CheckRun } from '../check-run.js';
import { createContainer } from '../steps/containers.js';
import { whileHeld } from '../steps/holds.js';
import { createRefusedWhileHeld, earlyCreateRefused, runPodFails } from '../steps/attempts.js';
import { ranPod, runPod, startRunPod } from '../steps/pods.js';
import { expectPodNotListed, expectPodNotReady, expectPodState, heldPod } from '../steps/state.js';
import { hookSawPod } from '../steps/hooks.js';
import { expectNothingOnNode } from '../steps/node.js';

const INJECTED = 'nrictl conformance: injected RunPodSandbox failure';

/** The id the RunPodSandbox hook of the refused pod p saw (hookSawPod made sure there is one). */
const refusedPodId = (r: CheckRun): string => r.plugin('00').seen.find((s) => r.isPod(s, 'p'))?.podId ?? '';

export const RUN_POD_CHECKS: Check[] = [
  {
    name: 'run-pod/hidden-while-hook-runs',
    critest: 4,
    source: 'draft+critest',
    clause: 'while a RunPodSandbox hook runs, the pod is not listed and not SANDBOX_READY; once it returns, it is',
    plugins: [{ index: '00', rules: [{ on: 'RunPodSandbox', pod: 'p', react: { block: true } }] }],
    steps: [
      whileHeld('00', 'RunPodSandbox', startRunPod('p'), [
        expectPodNotListed(heldPod, 'p', 'while its RunPodSandbox hook runs'),
        expectPodNotReady(heldPod, 'p', 'while its RunPodSandbox hook runs'),
      ]),
      ranPod('p'),
      expectPodState('p', 'SANDBOX_READY'),
    ],
  },
  {
    name: 'run-pod/no-workload-before-hook-returns',
    critest: 5,
    source: 'draft+critest',
    clause: 'no container is created in a pod before its RunPodSandbox hooks returned; afterwards one is',
    plugins: [{ index: '00', rules: [{ on: 'RunPodSandbox', pod: 'p', react: { block: true } }] }],
    steps: [
      whileHeld('00', 'RunPodSandbox', startRunPod('p'), [createRefusedWhileHeld('early', 'p')]),
      ranPod('p'),
      earlyCreateRefused('early', 'p'),
      createContainer('c', 'p'),
    ],
  },
  {
    name: 'run-pod/hook-error-leaves-nothing',
    critest: 6,
    source: 'critest',
    clause:
      "a plugin's error in RunPodSandbox fails the call, leaves no pod and frees the name: the same config then runs",
    plugins: [{ index: '00', rules: [{ on: 'RunPodSandbox', pod: 'p', react: { fail: INJECTED } }] }],
    steps: [
      runPodFails('p', { containing: INJECTED }),
      hookSawPod('00', 'p'),
      expectPodNotListed(refusedPodId, 'p', 'after its hook failed'),
      // CRI may list nothing while the sandbox runs on (containerd#13609): the node is looked at too.
      expectNothingOnNode(refusedPodId, 'p', 'after its hook failed'),
      runPod('p'),
      expectPodState('p', 'SANDBOX_READY'),
    ],
  },
];
