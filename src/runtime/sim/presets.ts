// Runtimes people run, as `nrictl sim --preset` imitates them: what each one says in its
// Configure request, which generation of the Go adaptation it vendors (or follows), and
// where it departs from the Go adaptation's rules: its quirks, each seen on the real
// runtime. A plugin author meets a quirk here before a node does.
import { ISULAD_REPORTS } from '../../api/index.js';
import { CRIO_133_NRI_VERSION, NEWEST_NRI_VERSION, goQuote } from '../adaptation/index.js';
import { isuladDropOnErrorAnswer, isuladStartFailureText } from './isulad.js';

/** Where a runtime does not do what the Go adaptation of its vintage would. */
export interface RuntimeQuirks {
  /** The runtime's name in messages ("iSulad"). */
  runtime: string;
  /**
   * A CreateContainerResponse without an `adjust` message aborts the whole runtime
   * (iSulad: its Rust NRI library unwraps the field, isula-rust-extensions
   * nri/src/nri/c_transfer.rs:1198 `resp.adjust.as_ref().unwrap()`).
   */
  createNeedsAdjust?: boolean;
  /**
   * Any UpdateContainers request from a plugin crashes the runtime (iSulad frees the
   * update items that the request owns: nri_adaption.cc:862 at d2434895).
   */
  pluginUpdatesCrash?: boolean;
  /** Environment variables a plugin adds are dropped; changing an existing one works. */
  ignoresNewEnv?: boolean;
  /** CreateContainer carries only the container's name, its pod's id and an empty `linux`. */
  sparseCreateRequest?: boolean;
  /**
   * Synchronize hands over every container the runtime's CRI lists, exited ones too, and
   * none with a state or times (iSulad: sync.ts sparseSyncContainers).
   */
  sparseSync?: boolean;
  /**
   * Which pod update events the runtime sends when a pod's resources change, where its
   * NRI knows them: CRI-O 1.33+ sends UpdatePodSandbox but never PostUpdatePodSandbox.
   * Absent: both, as the Go adaptation of its vintage can.
   */
  podUpdateEvents?: 'update-only' | 'none';
  /**
   * The runtime refuses a pod resource update itself, before NRI: containerd 2.2 has CRI
   * UpdatePodSandboxResources but answers it with an error. The words, and how its gRPC
   * says them: "not implemented yet" as a plain error (code Unknown) in 2.2.0-2.2.2, the
   * errdefs "not implemented" (Unimplemented) from 2.2.3 on
   * (internal/cri/instrument/instrumented_service.go).
   */
  podUpdateRefused?: { message: string; status: 'unimplemented' | 'unknown' };
  /**
   * The runtime's CRI has no UpdatePodSandboxResources at all (its cri-api predates
   * 0.33: containerd 1.7 to 2.1, CRI-O 1.32): gRPC answers Unimplemented, "unknown
   * method". Only the CRI face (`sim --cri-socket`) tells; a scenario's update-pod step
   * still changes the pod, silently, as NRI before v0.10 has no event for it.
   */
  criLacksPodUpdates?: boolean;
  /**
   * RunPodSandbox with the metadata of a pod that exists answers that pod's id (CRI-O's
   * idempotent retry), where containerd refuses: the name is reserved.
   */
  criReturnsExistingSandbox?: boolean;
  /**
   * Plugins see a container's name only from this label (else this annotation), never
   * from the CRI metadata: CRI-O reads the OCI spec annotation that the kubelet's label
   * `io.kubernetes.container.name` fills. Without it the name is empty.
   */
  containerNameLabel?: string;
  /**
   * When the node's config sets a signature policy (`sim --signature-policy`, crio.conf's
   * `signature_policy`), CreateContainer without ImageSpec.user_specified_image is refused
   * with these words, as a plain error (gRPC Unknown), before any NRI event: CRI-O checks
   * it once the image is found (server/container_create_linux.go at v1.32.13,
   * verifyImageSignature in server/container_create.go at v1.33.13 to v1.36.3, the same words).
   */
  signaturePolicyRefusal?: string;
  /**
   * CreateContainer in a stopped pod succeeds: containerd before 2.2.6 (and 2.3.0-2.3.2)
   * never looked at the sandbox's state (internal/cri/server/container_create.go; the check
   * came with containerd#13654). critest's spec 8 reports it (containerd#13599).
   */
  createsInStoppedPod?: boolean;
  /**
   * A RunPodSandbox that a plugin refuses leaves its sandbox running: a shim and a pause
   * process that no CRI listing shows (node.ts keeps them). containerd 2.0.0-2.2.5 and
   * 2.3.0-2.3.2 start the sandbox (sandboxService.StartSandbox) before the NRI hook and
   * shut it down on no error after it (internal/cri/server/sandbox_run.go); 2.2.6 and
   * 2.3.3 added the deferred ShutdownSandbox (containerd#13644, #13645; containerd#13609).
   * containerd 1.7's CRI server deletes the task with a kill when the hook fails.
   */
  leaksRefusedSandbox?: boolean;
  /**
   * Plugins are invoked in the order of their names, not their indexes: iSulad's own NRI
   * keys its plugins by name (nri-facts.md), an external plugin by a random one
   * (externalJoinsAtConnect).
   */
  pluginsByName?: boolean;
  /**
   * A plugin joins the invocation list after its Synchronize, in a critical section of its
   * own, while CRI calls are not held back: containerd 1.7.14-1.7.25 (NRI v0.6's
   * acceptPluginConnections, no BlockPluginSync in the CRI handlers before containerd#11384).
   * A container created during the Synchronize may then reach the plugin neither way.
   */
  joinAfterSync?: boolean;
  /**
   * An answer that comes after its request's deadline is lost, however soon after: iSulad
   * calls its plugins through ttrpc-rust's synchronous client, which waits for the answer
   * with recv_timeout (src/sync/client.rs), not on a timer that fires late as Go's does
   * (GO_LATE_ANSWERS).
   */
  noLateAnswers?: boolean;
  /**
   * Docker Engine: CreateContainer is the only event (plus Synchronize and validation);
   * the pod is the container itself (its id and `/name`); only env and mounts may be
   * adjusted; a plugin's UpdateContainers answers "not implemented".
   */
  docker?: boolean;
  /**
   * The line the runtime logs as it exits because its NRI's Start failed (a pre-started
   * plugin failed to start on NRI before v0.7), around Start's error. Whether that happens
   * is the NRI version's (RuntimeVintage.preStartFailureFatal), not the runtime's.
   */
  startFailureLog?: (nriError: string) => string;
  /**
   * The runtime has an NRI of its own rather than the Go adaptation of its vintage: a
   * pre-started plugin that fails to start is skipped (false) or fatal (true) whatever
   * that vintage does.
   */
  preStartFailureFatal?: boolean;
  /**
   * The runtime has an NRI of its own: whether it synchronizes pre-started plugins,
   * whatever its vintage does (RuntimeVintage.syncLaunched).
   */
  syncLaunchedPlugins?: boolean;
  /** The runtime's own log words for a plugin it did not start, where they are not the Go adaptation's. */
  startFailureText?: (plugin: { name: string; base: string; external: boolean }, err: Error) => string | undefined;
  /**
   * ContainerStatus.resources reports what the CRI request asked for, not what plugins set
   * in CreateContainer (the OCI spec and the cgroup have theirs), until an
   * UpdateContainerResources: containerd 1.7.0-2.3.4 copy the status from the spec as it was
   * before NRI adjusted a copy of it (copyResourcesToStatus in container_create.go, the
   * adjustment in WithContainerAdjustment); iSulad from its host config, which NRI never
   * touches (ConvertResourcesToStatus, nri_spec.c adjusts the OCI spec only).
   */
  statusResourcesAsAsked?: boolean;
  /**
   * RemovePodSandbox of a running pod tells plugins StopContainer then RemoveContainer for
   * each container, then RemovePodSandbox, and never StopPodSandbox: CRI-O 1.32-1.36
   * (server/sandbox_remove.go removePodSandbox stops containers in removeContainerInPod and
   * calls only nri.removePodSandbox).
   */
  removeSkipsPodStop?: boolean;
  /**
   * What verbose PodSandboxStatus info says of the pod's resources. 'after-update': nothing
   * until an UpdatePodSandboxResources succeeded, then what it set (containerd 2.3.4:
   * setUpdatedResources in internal/cri/server/sandbox_status.go copies only the status
   * that sandbox_update_resources.go fills; seen on the kit's 2.3.4). 'never': CRI-O
   * 1.32-1.36, whose info is the image, pid and runtimeSpec (server/sandbox_status.go
   * createSandboxInfo). Absent: the simulator's own, the pod's resources as they stand.
   */
  podStatusResources?: 'after-update' | 'never';
  /** Verbose ContainerStatus has no info at all (iSulad's ContainerStatus fills only the status): no runtimeSpec. */
  noStatusInfo?: boolean;
  /**
   * A CRI UpdateContainerResources kills the runtime once its plugins had UpdateContainer,
   * whether or not one is connected (iSulad with NRI on: NRIAdaptation::UpdateContainer
   * reads pluginResult::GetReplyResources, an entry nothing filled).
   */
  criUpdateCrashes?: boolean;
  /**
   * A plugin's CPU adjustment without a cpuset reaches the OCI spec as an empty cpuset,
   * which the runtime's own check refuses: iSulad's Rust bridge turns proto3's absent
   * string into an empty C string (isula-rust-extensions nri c_transfer.rs, NriLinuxCpu
   * from LinuxCPU), nri_spec.c copies any cpuset that is not NULL, and verify.c refuses "".
   */
  emptyCpusetRefused?: boolean;
  /**
   * Pods and containers reach plugins under the runtime's own names, made from the CRI
   * metadata: k8s_POD_<name>_<namespace>_<uid>_<attempt> for a pod in every event and in
   * Synchronize, k8s_<container>_<pod>_<namespace>_<uid>_<attempt> for a container in every
   * event but CreateContainer, which carries the CRI name (iSulad: nri_convert.cc
   * PodSandboxToNRI takes sandbox->GetName(), ContainerToNRIByConConfig the metadata name,
   * ContainerToNRIByID the stored name; v1_naming.cc makes both names).
   */
  runtimeNames?: boolean;
  /**
   * A container that exits by itself is never reported: StopContainer reaches plugins only
   * from a CRI StopContainer (iSulad: ContainerManagerService::StopContainer is the only
   * caller of NRIAdaptation::StopContainer besides a failed start).
   */
  noStopEventOnExit?: boolean;
  /**
   * Every CRI StopPodSandbox relays StopPodSandbox, the pod stopped already or not
   * (iSulad: PodSandboxManagerService::StopPodSandbox calls NRI after sandbox->Stop, which
   * succeeds on a stopped sandbox).
   */
  stopPodEventEveryTime?: boolean;
  /**
   * The pod exists, is listed READY and takes containers while its RunPodSandbox hook runs:
   * the runtime creates, starts and saves the sandbox before it tells plugins (iSulad:
   * RunPodSandbox calls NRI last, v1_cri_pod_sandbox_manager_service.cc:565), and its NRI
   * holds no lock against CRI calls.
   */
  podLiveDuringRunHook?: boolean;
  /**
   * RunPodSandbox and CreateContainer without metadata succeed, named from empty metadata
   * (iSulad checks neither: v1_naming.cc reads the absent message's defaults).
   */
  acceptsMissingMetadata?: boolean;
  /**
   * When the runtime stops or removes a pod's containers itself (StopPodSandbox,
   * RemovePodSandbox), plugins hear nothing of the containers, and RemovePodSandbox of a
   * running pod does not stop it first: only StopPodSandbox, or only RemovePodSandbox,
   * reaches them (iSulad: StopAllContainersInSandbox and RemoveAllContainersInSandbox call
   * CRIHelpers' helpers, not the services that relay NRI; RemovePodSandbox never stops).
   */
  podTeardownOnlyPodEvents?: boolean;
  /**
   * An external plugin is put in the invocation list as it connects, under a random
   * 64-character name, and gets events from its Configure on, its Synchronize still in
   * flight; plugins are invoked in the order of those names, so external plugins in a
   * random order (iSulad: NewExternalPlugin, nri_adaption.cc:176-184, AddPluginByIndex
   * into a std::map before Start and Synchronize; no lock holds CRI calls back).
   */
  externalJoinsAtConnect?: boolean;
  /**
   * A plugin that answers a call with an error is dropped and the operation goes on
   * (iSulad), where Go fails the operation: the reason it is dropped with.
   */
  dropOnErrorAnswer?: (
    plugin: { base: string; external: boolean },
    method: string,
    ids: { container?: string },
  ) => Error;
}

export interface RuntimePreset {
  runtimeName: string;
  runtimeVersion: string;
  nriVersion: string;
  quirks?: RuntimeQuirks;
}

/**
 * Real iSulad (master builds reporting 2.1.5, e.g. d2434895 of 2025-07, and v2.1.6; upstream
 * tag v2.1.5 has no NRI): its own C++ NRI (src/daemon/nri) over the Rust libisula_nri
 * (isula-rust-extensions nri/). It knows the events of NRI v0.6 (0x7ff) and no pod
 * update event; its registration and request timeouts default to 5 s and 2 s
 * (isulad_config.h:49-50), the request timeout applying to every call
 * (isula-rust-extensions nri/src/nri/plugin.rs:293-339), as the Go defaults do.
 */
const ISULAD_QUIRKS: RuntimeQuirks = Object.freeze({
  runtime: 'iSulad',
  pluginsByName: true,
  // Its CRI v1 runtime service (C++) overrides no UpdatePodSandboxResources, so gRPC's
  // generated base answers Unimplemented (cri_v1_runtime_runtime_service.h at 03c1cd8e).
  criLacksPodUpdates: true,
  createNeedsAdjust: true,
  pluginUpdatesCrash: true,
  ignoresNewEnv: true,
  sparseCreateRequest: true,
  sparseSync: true,
  statusResourcesAsAsked: true,
  noStatusInfo: true,
  criUpdateCrashes: true,
  emptyCpusetRefused: true,
  runtimeNames: true,
  noStopEventOnExit: true,
  stopPodEventEveryTime: true,
  podLiveDuringRunHook: true,
  acceptsMissingMetadata: true,
  podTeardownOnlyPodEvents: true,
  externalJoinsAtConnect: true,
  noLateAnswers: true,
  // Its NRI (C++, src/daemon/nri) logs a plugin that fails to start and skips it:
  // NRIAdaptation::StartPlugin, nri_adaption.cc:887-891 at v2.1.6.
  preStartFailureFatal: false,
  // It synchronizes external plugins only: NewExternalPlugin calls Synchronize
  // (nri_adaption.cc:224), StartPlugin (:867-897) never does.
  syncLaunchedPlugins: false,
  startFailureText: isuladStartFailureText,
  dropOnErrorAnswer: isuladDropOnErrorAnswer,
});

/**
 * containerd 1.7: its CRI service starts NRI (pkg/cri/server/service.go:269 at v1.7.13,
 * `failed to set up NRI for CRI service: %w` around pkg/nri/nri.go:151 `failed to start
 * NRI interface: %w`), and pkg/cri/cri.go:117 logs a failed run with logrus's Fatal,
 * which exits. The same words from v1.7.0 (service.go:258) to v1.7.34.
 */
const CONTAINERD_17_QUIRKS: RuntimeQuirks = Object.freeze({
  runtime: 'containerd',
  statusResourcesAsAsked: true,
  criLacksPodUpdates: true,
  createsInStoppedPod: true,
  startFailureLog: (nriError: string) =>
    `level=fatal msg="Failed to run CRI service" error=${goQuote(`failed to set up NRI for CRI service: failed to start NRI interface: ${nriError}`)}`,
});

/**
 * containerd 1.7.14-1.7.25: NRI v0.6 synchronizes a plugin under containerd's own lock and
 * adds it under the adaptation's, and no CRI call is held back meanwhile (BlockPluginSync
 * came with 1.7.26, containerd#11384). containerd 1.7.0-1.7.13 (v0.3, v0.4) hold the
 * adaptation's lock across both, and 1.7.26 on (v0.8) hold CRI calls back.
 */
const CONTAINERD_1725_QUIRKS: RuntimeQuirks = Object.freeze({ ...CONTAINERD_17_QUIRKS, joinAfterSync: true });

/** containerd 2.0 and 2.1: cri-api 0.32, without UpdatePodSandboxResources. */
const CONTAINERD_20_QUIRKS: RuntimeQuirks = Object.freeze({
  runtime: 'containerd',
  statusResourcesAsAsked: true,
  criLacksPodUpdates: true,
  createsInStoppedPod: true,
});

/**
 * containerd 2.2.0-2.2.2: its NRI knows the pod update events, its CRI never sends them:
 * UpdatePodSandboxResources answers a plain error.
 */
const CONTAINERD_220_QUIRKS: RuntimeQuirks = Object.freeze({
  runtime: 'containerd',
  statusResourcesAsAsked: true,
  createsInStoppedPod: true,
  podUpdateEvents: 'none',
  podUpdateRefused: Object.freeze({ message: 'not implemented yet', status: 'unknown' as const }),
});

/** containerd 2.2.3-2.2.7: the same refusal, now as gRPC Unimplemented. */
const CONTAINERD_223_QUIRKS: RuntimeQuirks = Object.freeze({
  runtime: 'containerd',
  statusResourcesAsAsked: true,
  podUpdateEvents: 'none',
  podUpdateRefused: Object.freeze({ message: 'not implemented', status: 'unimplemented' as const }),
});

const CRIO_UNVERIFIABLE_IMAGE = 'user specified image not specified, cannot verify image signature';

/** CRI-O 1.33 and later: UpdatePodSandbox without PostUpdatePodSandbox; names from the kubelet label. */
const CRIO_QUIRKS: RuntimeQuirks = Object.freeze({
  runtime: 'CRI-O',
  criReturnsExistingSandbox: true,
  removeSkipsPodStop: true,
  podStatusResources: 'never',
  podUpdateEvents: 'update-only',
  containerNameLabel: 'io.kubernetes.container.name',
  signaturePolicyRefusal: CRIO_UNVERIFIABLE_IMAGE,
});

/** CRI-O 1.32: its NRI (v0.9.0) has no pod update events at all. */
const CRIO_132_QUIRKS: RuntimeQuirks = Object.freeze({
  runtime: 'CRI-O',
  criReturnsExistingSandbox: true,
  removeSkipsPodStop: true,
  podStatusResources: 'never',
  criLacksPodUpdates: true,
  containerNameLabel: 'io.kubernetes.container.name',
  signaturePolicyRefusal: CRIO_UNVERIFIABLE_IMAGE,
});

/** containerd 2.3: ContainerStatus resources of before NRI's adjustment; a pod's resources shown once updated. */
const CONTAINERD_23_QUIRKS: RuntimeQuirks = Object.freeze({
  runtime: 'containerd',
  statusResourcesAsAsked: true,
  podStatusResources: 'after-update',
});

/** Docker Engine 29.2+ (moby daemon/internal/nri). */
const DOCKER_QUIRKS: RuntimeQuirks = Object.freeze({ runtime: 'Docker', docker: true });

/** containerd 2.0.0-2.2.5 and 2.3.0-2.3.2: a refused RunPodSandbox leaves its sandbox running (containerd#13609). */
const LEAKS_REFUSED_SANDBOX = (quirks: RuntimeQuirks): RuntimeQuirks =>
  Object.freeze({ ...quirks, leaksRefusedSandbox: true });

const containerd = (version: string, nriVersion: string, quirks?: RuntimeQuirks): RuntimePreset => ({
  runtimeName: 'containerd',
  runtimeVersion: version,
  nriVersion,
  ...(quirks ? { quirks } : {}),
});
// CRI-O calls nri.New("cri-o", version): the version has no "v".
const crio = (version: string, nriVersion: string, quirks: RuntimeQuirks): RuntimePreset => ({
  runtimeName: 'cri-o',
  runtimeVersion: version,
  nriVersion,
  quirks,
});

/**
 * One preset per release line, named after it, with the newest release of the line we
 * read as the version it reports. The NRI versions are those of each release's go.mod.
 */
export const RUNTIME_PRESETS: Readonly<Record<string, RuntimePreset>> = Object.freeze({
  'containerd-1.7.0': containerd('v1.7.0', 'v0.3.0', CONTAINERD_17_QUIRKS), // 1.7.0-1.7.6
  'containerd-1.7.13': containerd('v1.7.13', 'v0.4.0', CONTAINERD_17_QUIRKS), // 1.7.7-1.7.13
  'containerd-1.7.25': containerd('v1.7.25', 'v0.6.1', CONTAINERD_1725_QUIRKS), // 1.7.14-1.7.15 v0.6.0, 1.7.16-1.7.25 v0.6.1
  'containerd-1.7.34': containerd('v1.7.34', 'v0.8.0', CONTAINERD_17_QUIRKS), // 1.7.26 and later
  'containerd-2.0': containerd('v2.0.11', 'v0.8.0', LEAKS_REFUSED_SANDBOX(CONTAINERD_20_QUIRKS)),
  'containerd-2.1': containerd('v2.1.9', 'v0.8.0', LEAKS_REFUSED_SANDBOX(CONTAINERD_20_QUIRKS)),
  'containerd-2.2.0': containerd('v2.2.0', 'v0.10.0', LEAKS_REFUSED_SANDBOX(CONTAINERD_220_QUIRKS)),
  'containerd-2.2.1': containerd('v2.2.7', 'v0.11.0', CONTAINERD_223_QUIRKS), // 2.2.1-2.2.7, as 2.2.7
  'containerd-2.3': containerd('v2.3.4', 'v0.12.0', CONTAINERD_23_QUIRKS),
  'crio-1.32': crio('1.32.13', 'v0.9.0', CRIO_132_QUIRKS),
  'crio-1.33': crio('1.33.13', CRIO_133_NRI_VERSION, CRIO_QUIRKS),
  'crio-1.34': crio('1.34.11', 'v0.10.0', CRIO_QUIRKS),
  'crio-1.35': crio('1.35.6', 'v0.11.0', CRIO_QUIRKS),
  'crio-1.36': crio('1.36.3', 'v0.11.0', CRIO_QUIRKS),
  // Docker's version has no "v" (hack/make.sh strips it); NRI from 29.2.0 on, v0.12.1 from 29.7.0.
  'docker-29': { runtimeName: 'docker', runtimeVersion: '29.7.2', nriVersion: 'v0.12.1', quirks: DOCKER_QUIRKS },
  // iSulad copies an early containerd's name and version into Configure.
  'isulad-2.1.5': {
    runtimeName: ISULAD_REPORTS.name,
    runtimeVersion: ISULAD_REPORTS.version,
    nriVersion: 'v0.6.1',
    quirks: ISULAD_QUIRKS,
  },
  newest: { runtimeName: 'nrictl-sim', runtimeVersion: '0.1.0', nriVersion: NEWEST_NRI_VERSION },
});

/** The presets `--preset all` runs: every runtime release line (not `newest`, which is no runtime). */
export const RELEASE_PRESETS: readonly string[] = Object.freeze(
  Object.keys(RUNTIME_PRESETS).filter((name) => name !== 'newest'),
);
