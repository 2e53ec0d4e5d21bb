// D of nri-contract.md: StopPodSandbox's contract, and a plugin's error during it.
import { KNOWN } from '../known.js';
import type { Check } from '../check.js';
import { runContainer } from '../steps/containers.js';
import { whileHeld } from '../steps/holds.js';
import { createFails, teardownTolerated } from '../steps/attempts.js';
import { expectCount, expectNoEvent } from '../steps/events.js';
import { mark } from '../steps/marks.js';
import { removePod, runPod, startStopPod, stopPod, stoppedPod } from '../steps/pods.js';
import { expectContainersExited, expectPodGone, expectPodState, expectPodStatusAnswers } from '../steps/state.js';

export const STOP_POD_CHECKS: Check[] = [
  {
    name: 'stop-pod/containers-stopped-during-hook',
    critest: 7,
    source: 'draft+critest',
    clause:
      "when the StopPodSandbox hook runs the pod's containers have exited, and the pod is still there (PodSandboxStatus answers)",
    plugins: [{ index: '00', rules: [{ on: 'StopPodSandbox', pod: 'p', react: { block: true } }] }],
    steps: [
      runPod('p'),
      ...runContainer('c', 'p'),
      whileHeld('00', 'StopPodSandbox', startStopPod('p'), [
        expectContainersExited('p', 'while the StopPodSandbox hook runs'),
        expectPodStatusAnswers('p', 'while the StopPodSandbox hook runs'),
      ]),
      stoppedPod('p'),
      removePod('p'),
    ],
  },
  {
    name: 'stop-pod/idempotent',
    critest: 8,
    source: 'critest',
    clause: 'StopPodSandbox of a stopped pod succeeds and tells plugins nothing: StopPodSandbox reaches them once',
    plugins: [{ index: '00' }],
    steps: [
      runPod('p'),
      stopPod('p'),
      expectCount('00', 'p', 'StopPodSandbox', 1),
      stopPod('p'),
      expectCount('00', 'p', 'StopPodSandbox', 1),
    ],
  },
  {
    name: 'stop-pod/no-reuse',
    critest: 8,
    source: 'draft+critest',
    clause: 'a stopped pod is never reused: CreateContainer in it fails, and no CreateContainer hook fires',
    plugins: [{ index: '00' }],
    steps: [
      runPod('p'),
      stopPod('p'),
      mark('stopped'),
      createFails('c', 'p', { known: [KNOWN.createInStoppedPod] }),
      expectNoEvent('00', 'stopped', { pod: 'p' }, 'CreateContainer'),
    ],
  },
  {
    name: 'stop-pod/plugin-error-teardown-goes-on',
    source: 'draft',
    clause:
      "a plugin's error in StopPodSandbox does not keep the pod from stopping: its containers exit, the pod is SANDBOX_NOTREADY and can be removed",
    plugins: [
      {
        index: '00',
        rules: [
          {
            on: 'StopPodSandbox',
            pod: 'p',
            times: 'always',
            react: { fail: 'nrictl conformance: injected StopPodSandbox failure' },
          },
        ],
      },
    ],
    steps: [
      runPod('p'),
      ...runContainer('c', 'p'),
      teardownTolerated('StopPodSandbox', 'p'),
      expectPodState('p', 'SANDBOX_NOTREADY', " after a plugin's StopPodSandbox error"),
      expectContainersExited('p', "after a plugin's StopPodSandbox error"),
      teardownTolerated('RemovePodSandbox', 'p'),
      expectPodGone('p'),
    ],
  },
];
