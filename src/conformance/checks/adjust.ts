// Beyond critest: what a plugin changes in CreateContainer is applied, and a resource
// update reaches plugins as UpdateContainer, then PostUpdateContainer.
import type { nri } from '../../api/index.js';
import type { Check } from '../check.js';
import { runContainer } from '../steps/containers.js';
import { expectInSpec, expectResources } from '../steps/container-spec.js';
import { expectEvents } from '../steps/events.js';
import { runPod } from '../steps/pods.js';
import { expectUpdateCarried, updateContainer } from '../steps/update-container.js';
import { expectResourcesApplied, runAdjustedContainer } from '../steps/applied-resources.js';

const MiB = 1024 * 1024;
const ENV = { key: 'NRICTL_CONFORMANCE', value: 'adjusted' };
const ANNOTATION = 'nrictl.io/conformance-adjusted';
const MOUNT = '/run/nrictl-conformance';
const SET = { cpuShares: 384, memoryLimitInBytes: 96 * MiB };
const RESOURCES: nri.ILinuxResources = {
  cpu: { shares: { value: SET.cpuShares } },
  memory: { limit: { value: SET.memoryLimitInBytes } },
};
/** What the container asks for itself, so that the runtime reports resources whether or not the plugin's apply. */
const ASKED = { cpuShares: 256, memoryLimitInBytes: 128 * MiB };
const UPDATE = { cpuShares: 300, memoryLimitInBytes: 160 * MiB };

function adjusting(adjust: nri.IContainerAdjustment): Check['plugins'] {
  return [{ index: '00', rules: [{ on: 'CreateContainer', container: 'c', react: { adjust } }] }];
}

const made = [runPod('p'), ...runContainer('c', 'p')];

export const ADJUST_CHECKS: Check[] = [
  {
    name: 'adjust/env',
    source: 'nrictl',
    clause: "an environment variable a plugin adds in CreateContainer is in the container's spec",
    plugins: adjusting({ env: [ENV] }),
    steps: [
      ...made,
      expectInSpec('c', `${ENV.key}=${ENV.value} in process.env`, (s) =>
        (s.process?.env ?? []).includes(`${ENV.key}=${ENV.value}`)
          ? undefined
          : `env ${JSON.stringify(s.process?.env ?? [])}`,
      ),
    ],
  },
  {
    name: 'adjust/annotation',
    source: 'nrictl',
    clause: "an annotation a plugin adds in CreateContainer is in the container's spec",
    plugins: adjusting({ annotations: { [ANNOTATION]: 'yes' } }),
    steps: [
      ...made,
      expectInSpec('c', `annotation ${ANNOTATION}=yes`, (s) =>
        s.annotations?.[ANNOTATION] === 'yes'
          ? undefined
          : `annotations without it (${Object.keys(s.annotations ?? {}).length} others)`,
      ),
    ],
  },
  {
    name: 'adjust/mount',
    source: 'nrictl',
    clause: "a mount a plugin adds in CreateContainer is in the container's spec (a small tmpfs, nothing of the host)",
    plugins: adjusting({
      mounts: [
        { destination: MOUNT, type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'nodev', 'noexec', 'size=64k'] },
      ],
    }),
    steps: [
      ...made,
      expectInSpec('c', `a tmpfs mount at ${MOUNT}`, (s) =>
        (s.mounts ?? []).some((m) => m.destination === MOUNT)
          ? undefined
          : `mounts ${(s.mounts ?? []).map((m) => m.destination).join(', ') || 'none'}`,
      ),
    ],
  },
  {
    name: 'adjust/resources',
    source: 'nrictl',
    clause:
      "CPU shares and a memory limit a plugin sets in CreateContainer are what the container runs with (its OCI spec); where ContainerStatus's resources say otherwise, the verdict says what their readers see",
    plugins: adjusting({ linux: { resources: RESOURCES } }),
    steps: [
      runPod('p'),
      ...runAdjustedContainer('c', 'p', { extra: { linux: { resources: ASKED } } }),
      expectResourcesApplied('c', SET, ASKED),
    ],
  },
  {
    name: 'update-container/relayed',
    source: 'nrictl',
    clause:
      'UpdateContainerResources reaches plugins as UpdateContainer with the values asked for, then PostUpdateContainer, and is applied',
    plugins: [{ index: '00' }],
    requires: [{ survives: 'UpdateContainerResources' }],
    steps: [
      ...made,
      updateContainer('c', UPDATE),
      expectEvents('00', { pod: 'p', container: 'c', only: ['UpdateContainer', 'PostUpdateContainer'] }, [
        'UpdateContainer',
        'PostUpdateContainer',
      ]),
      expectUpdateCarried('00', 'c', UPDATE.cpuShares),
      expectResources('c', { cpu: { shares: { value: UPDATE.cpuShares } } }, 'after the update'),
    ],
  },
];
