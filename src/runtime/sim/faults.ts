// Ways to break the simulated runtime, one clause of the NRI contract each, so that every
// check of `nrictl conformance` is shown able to fail (test/conformance). No runtime
// people run does these unless a preset's quirk says so (quirks.ts); they are a testing
// aid, reached from tests and from `nrictl conformance --sim --fault` (hidden).
export const SIM_FAULTS = [
  /** StopPodSandbox is not relayed. */
  'skip-stop-pod-event',
  /** StartContainer is not relayed. */
  'skip-start-container-event',
  /** PostStartContainer is not relayed. */
  'skip-post-start-event',
  /** A container that exits by itself is not reported to plugins. */
  'no-stop-event-on-exit',
  /** ListPodSandbox shows a pod while its RunPodSandbox hook runs. */
  'pod-listed-during-run-hook',
  /** CreateContainer finds a pod whose RunPodSandbox hook runs (and waits for it). */
  'pod-found-during-run-hook',
  /** A pod whose RunPodSandbox hook failed stays, and keeps its name. */
  'keep-pod-after-run-hook-error',
  /** StopPodSandbox is relayed before the pod's containers are stopped. */
  'stop-pod-hook-before-containers',
  /** A second StopPodSandbox of a stopped pod is relayed again. */
  'stop-pod-event-twice',
  /** CreateContainer in a stopped pod succeeds (containerd before 2.2.6 does it: quirks.ts). */
  'create-in-stopped-pod',
  /** A plugin's StopPodSandbox error fails the call and leaves the pod running. */
  'stop-pod-aborts-on-plugin-error',
  /** RemovePodSandbox of a running pod does not stop it first. */
  'remove-pod-without-stop',
  /** RemovePodSandbox is relayed before the pod's containers are removed. */
  'containers-listed-during-remove-hook',
  /** A plugin's RemovePodSandbox error fails the call and leaves the pod. */
  'remove-pod-aborts-on-plugin-error',
  /** Plugins are invoked in the order they joined, not by index. */
  'plugins-in-registration-order',
  /** ListContainers shows a container while its CreateContainer hook runs. */
  'container-listed-during-create-hook',
  /** A container whose CreateContainer hook failed stays, CREATED. */
  'keep-container-after-create-hook-error',
  /** What a plugin adjusts in CreateContainer is dropped: env, annotations, mounts, resources. */
  'drop-adjusted-env',
  'drop-adjusted-annotations',
  'drop-adjusted-mounts',
  'drop-adjusted-resources',
  /** PostUpdateContainer is not relayed. */
  'skip-post-update-container-event',
  /** Invalid requests fire a hook before they are refused. */
  'relay-create-in-unknown-pod',
  'relay-create-without-metadata',
  'relay-run-pod-without-metadata',
  'relay-stop-unknown-pod',
  /** RunPodSandbox repeating a live pod's metadata makes a new pod. */
  'duplicate-pod-gets-new-id',
  /** StartContainer of an unknown id succeeds. */
  'start-unknown-container-succeeds',
  /** Synchronize lists no container. */
  'sync-omits-containers',
  /** A plugin joins after its Synchronize in a critical section of its own (containerd 1.7.14-1.7.25: quirks.ts). */
  'join-after-sync',
  /** PostUpdatePodSandbox is not relayed (CRI-O does not: quirks.ts). */
  'skip-post-update-pod-event',
  /** A plugin's UpdatePodSandbox error is ignored: the update succeeds. */
  'ignore-update-pod-error',
  /** A plugin's UpdatePodSandbox error fails the call, but the values are applied. */
  'apply-rejected-pod-update',
  /** A plugin's PostUpdatePodSandbox error fails the call. */
  'post-update-pod-error-fails-call',
  /** Pods reach plugins under the runtime's own name, k8s_POD_<name>_<namespace>_<uid>_<attempt> (iSulad's), not the CRI name. */
  'pods-named-by-runtime',
] as const;

export type SimFault = (typeof SIM_FAULTS)[number];
