// E of nri-contract.md: CreateContainer's contract.
import type { Check } from '../check.js';
import { removeContainer, runContainer, startCreate, stopContainer } from '../steps/containers.js';
import { createFails } from '../steps/attempts.js';
import { expectNoEvent } from '../steps/events.js';
import { whileHeld } from '../steps/holds.js';
import { hookSawContainer } from '../steps/hooks.js';
import { mark } from '../steps/marks.js';
import { runPod, succeeded } from '../steps/pods.js';
import {
  expectContainerNotCreated,
  expectContainerNotListed,
  expectContainerState,
  heldContainer,
} from '../steps/state.js';

const INJECTED = 'nrictl conformance: injected CreateContainer failure';

export const CREATE_CONTAINER_CHECKS: Check[] = [
  {
    name: 'create-container/hidden-while-hook-runs',
    critest: 9,
    source: 'critest',
    clause:
      'while a CreateContainer hook runs the container is not listed and not CONTAINER_CREATED; once it returns, it is CONTAINER_CREATED',
    plugins: [{ index: '00', rules: [{ on: 'CreateContainer', container: 'c', react: { block: true } }] }],
    steps: [
      runPod('p'),
      whileHeld('00', 'CreateContainer', startCreate('c', 'p'), [
        expectContainerNotListed(heldContainer, 'c', 'p', 'while its CreateContainer hook runs'),
        expectContainerNotCreated(heldContainer, 'c', 'while its CreateContainer hook runs'),
      ]),
      succeeded('create:c', () => 'CreateContainer of c'),
      expectContainerState('c', 'CONTAINER_CREATED'),
    ],
  },
  {
    name: 'create-container/hook-error-leaves-nothing',
    critest: 10,
    source: 'critest',
    clause:
      "a plugin's error in CreateContainer fails the call and leaves no container (none listed, never started); the next container is made",
    plugins: [{ index: '00', rules: [{ on: 'CreateContainer', container: 'c', react: { fail: INJECTED } }] }],
    steps: [
      runPod('p'),
      mark('before'),
      createFails('c', 'p', { containing: INJECTED }),
      hookSawContainer('00', 'p', 'c'),
      expectContainerNotListed(() => '', 'c', 'p', 'after its CreateContainer hook failed'),
      expectNoEvent('00', 'before', { pod: 'p' }, 'StartContainer'),
      ...runContainer('c2', 'p'),
      stopContainer('c2'),
      removeContainer('c2'),
    ],
  },
];
