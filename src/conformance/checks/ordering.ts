// G of nri-contract.md: several plugins, in index order, and the pod held back until the last hook returned.
import type { Check } from '../check.js';
import { expectIndexOrder } from '../steps/events.js';
import { whileHeld } from '../steps/holds.js';
import { ranPod, startRunPod } from '../steps/pods.js';
import { expectPodState } from '../steps/state.js';
import { expectHeldBack, expectSeenSoFar, expectSameIdAsReturned } from '../steps/ordering.js';

export const ORDERING_CHECKS: Check[] = [
  {
    name: 'ordering/index-order-and-held-back',
    critest: 17,
    source: 'draft+critest',
    clause:
      'RunPodSandbox hooks run in index order, not registration order, and the pod is not returned, listed or ready until the last one returned',
    // 11 registers first, then 10: the order must come from the index.
    plugins: [{ index: '11', rules: [{ on: 'RunPodSandbox', pod: 'p', react: { block: true } }] }, { index: '10' }],
    steps: [
      whileHeld('11', 'RunPodSandbox', startRunPod('p'), [expectSeenSoFar(['10', '11'], 'p'), expectHeldBack('p')]),
      ranPod('p'),
      expectPodState('p', 'SANDBOX_READY'),
      expectIndexOrder(['10', '11'], { pod: 'p' }, ['RunPodSandbox']),
      expectSameIdAsReturned(['10', '11'], 'p'),
    ],
  },
];
