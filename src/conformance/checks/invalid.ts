// F of nri-contract.md: invalid CRI requests fire no hook.
import type { Check, Step } from '../check.js';
import { callFails, callMayFail } from '../steps/attempts.js';
import { expectNoEvents } from '../steps/events.js';
import { mark } from '../steps/marks.js';
import { runPod } from '../steps/pods.js';
import { duplicateRunPod } from '../steps/duplicate.js';

const observer = [{ index: '00' }];
const none = (what: string): Step => expectNoEvents('00', 'before', what);

export const INVALID_CHECKS: Check[] = [
  {
    name: 'invalid/create-in-unknown-pod',
    critest: 11,
    source: 'critest',
    clause: 'CreateContainer into a pod id the runtime does not know fails, and fires no hook',
    plugins: observer,
    steps: [
      mark('before'),
      callFails('CreateContainer into an unknown pod id', (r) =>
        r.cri((c, o) =>
          c.createContainer(r.unknownId, r.containerConfig('c', r.podConfig('ghost')), r.podConfig('ghost'), o),
        ),
      ),
      none('CreateContainer into an unknown pod'),
    ],
  },
  {
    name: 'invalid/create-without-metadata',
    critest: 12,
    source: 'critest',
    clause: 'CreateContainer without metadata fails, and fires no hook',
    plugins: observer,
    steps: [
      runPod('p'),
      mark('before'),
      callFails('CreateContainer without metadata', (r) => {
        const config = { ...r.containerConfig('c', r.pod('p').config), metadata: null };
        return r.cri((c, o) => c.createContainer(r.pod('p').id, config, r.pod('p').config, o));
      }),
      none('CreateContainer without metadata'),
    ],
  },
  {
    name: 'invalid/run-pod-without-metadata',
    critest: 13,
    source: 'critest',
    clause: 'RunPodSandbox without metadata fails, and fires no hook',
    plugins: observer,
    steps: [
      mark('before'),
      callFails('RunPodSandbox without metadata', async (r) => {
        const config = { ...r.podConfig('nameless'), metadata: null };
        const res = await r.cri((c, o) => c.runPodSandbox(config, '', o));
        r.adoptPod('nameless', res.podSandboxId, config);
      }),
      none('RunPodSandbox without metadata'),
    ],
  },
  {
    name: 'invalid/duplicate-pod-metadata',
    critest: 14,
    source: 'critest',
    clause:
      "RunPodSandbox with a live pod's exact metadata fails or answers that pod's id (never a new pod), and fires no hook",
    plugins: observer,
    steps: [runPod('p'), mark('before'), duplicateRunPod('p'), none('a duplicate RunPodSandbox')],
  },
  {
    name: 'invalid/unknown-container',
    critest: 15,
    source: 'critest',
    clause:
      'StartContainer of an unknown container id fails; StopContainer and RemoveContainer of it may succeed; none fires a hook',
    plugins: observer,
    steps: [
      mark('before'),
      callFails('StartContainer of an unknown id', (r) => r.cri((c, o) => c.startContainer(r.unknownId, o))),
      callMayFail('StopContainer of an unknown id', (r) => r.cri((c, o) => c.stopContainer(r.unknownId, 0, o))),
      callMayFail('RemoveContainer of an unknown id', (r) => r.cri((c, o) => c.removeContainer(r.unknownId, o))),
      none('calls on an unknown container'),
    ],
  },
  {
    name: 'invalid/unknown-pod-teardown',
    critest: 16,
    source: 'critest',
    clause: 'StopPodSandbox and RemovePodSandbox of an unknown pod id may succeed or fail, and fire no hook',
    plugins: observer,
    steps: [
      mark('before'),
      callMayFail('StopPodSandbox of an unknown id', (r) => r.cri((c, o) => c.stopPodSandbox(r.unknownId, o))),
      callMayFail('RemovePodSandbox of an unknown id', (r) => r.cri((c, o) => c.removePodSandbox(r.unknownId, o))),
      none('teardown of an unknown pod'),
    ],
  },
];
