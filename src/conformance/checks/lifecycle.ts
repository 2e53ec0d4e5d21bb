// A and B of nri-contract.md: the pod's and the container's lifecycle as plugins see it.
import { KNOWN } from '../known.js';
import type { Check } from '../check.js';
import type { NriEventName } from '../model.js';
import { createContainer, removeContainer, runContainer, stopContainer } from '../steps/containers.js';
import { expectContainerNames, expectEventComes, expectEvents } from '../steps/events.js';
import { expectPodMetadata } from '../steps/metadata.js';
import { removePod, runPod, stopPod } from '../steps/pods.js';
import { expectExits, startExiting } from '../steps/state.js';

const CONTAINER_EVENTS: NriEventName[] = ['CreateContainer', 'StartContainer', 'StopContainer', 'RemoveContainer'];
/** A container's whole life in a pod of its own. */
const containerLife = [runPod('p'), ...runContainer('c', 'p'), stopContainer('c'), removeContainer('c')];

export const LIFECYCLE_CHECKS: Check[] = [
  {
    name: 'pod-lifecycle',
    critest: 1,
    source: 'draft+critest',
    clause:
      "RunPodSandbox, StopPodSandbox and RemovePodSandbox reach a plugin once each, in that order, with the pod's id, name, namespace and uid",
    plugins: [{ index: '00' }],
    steps: [
      runPod('p'),
      stopPod('p'),
      removePod('p'),
      expectEvents('00', { pod: 'p' }, ['RunPodSandbox', 'StopPodSandbox', 'RemovePodSandbox']),
      expectPodMetadata('00', 'p'),
    ],
  },
  {
    name: 'container-lifecycle',
    critest: 2,
    source: 'critest',
    clause:
      "CreateContainer, StartContainer, StopContainer and RemoveContainer reach a plugin once each, in that order, with the container's CRI name",
    plugins: [{ index: '00' }],
    steps: [
      ...containerLife,
      expectEvents('00', { pod: 'p', container: 'c', only: CONTAINER_EVENTS }, CONTAINER_EVENTS),
      expectContainerNames('00', 'p', 'c', [KNOWN.emptyContainerName]),
    ],
  },
  {
    name: 'container-lifecycle/post-events',
    source: 'nrictl',
    clause:
      'PostCreateContainer follows CreateContainer and PostStartContainer follows StartContainer, before the next event of the container',
    plugins: [{ index: '00' }],
    steps: [
      ...containerLife,
      expectEvents('00', { pod: 'p', container: 'c' }, [
        'CreateContainer',
        'PostCreateContainer',
        'StartContainer',
        'PostStartContainer',
        'StopContainer',
        'RemoveContainer',
      ]),
    ],
  },
  {
    name: 'container-exits-by-itself',
    critest: 3,
    source: 'critest',
    clause:
      'a container that exits by itself is reported CONTAINER_EXITED with its exit code, and plugins get its StopContainer before anyone removes it',
    plugins: [{ index: '00' }],
    steps: [
      runPod('p'),
      createContainer('c', 'p', { exits: true }),
      startExiting('c'),
      expectExits('c'),
      expectEventComes('00', { pod: 'p', container: 'c' }, 'StopContainer'),
      removeContainer('c'),
      expectEvents('00', { pod: 'p', container: 'c', only: CONTAINER_EVENTS }, CONTAINER_EVENTS),
      expectContainerNames('00', 'p', 'c', [KNOWN.emptyContainerName]),
    ],
  },
];
