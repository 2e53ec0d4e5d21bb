// Pods and containers between CRI's requests and statuses and the simulator's state
// (NRI's PodSandbox and Container). What CRI knows and NRI does not (metadata attempts,
// the image, the log path, the config as sent) is kept in a CriRecord beside the state;
// a pod or container that came from the scenario, not from CRI, is described from its
// NRI form alone.
import { getOptionalInt, nri } from '../../../api/index.js';
import { CriContainerState, CriMountPropagation, CriPodState, type cri } from '../../../cri/index.js';
import { goJson } from './go-json.js';
import { criResources, nriResources, ociResources } from './resources.js';

/** What CRI said of a pod or container when it was made through CRI. */
export interface CriRecord {
  name: string;
  attempt: number;
  /** Nanoseconds since the epoch. */
  createdAt: number;
  /** Pods: the runtime handler; containers: the image as asked for, and the log path. */
  runtimeHandler?: string;
  image?: string;
  imageId?: string;
  logPath?: string;
  /** The config as sent, for verbose info. */
  config: unknown;
}

/** The NRI pod a RunPodSandbox makes: what containerd tells its plugins. */
export function podOfConfig(
  id: string,
  config: cri.IPodSandboxConfig,
  runtimeHandler: string,
  ip: string,
): nri.IPodSandbox {
  const meta = config.metadata ?? {};
  const linux: nri.ILinuxPodSandbox = { cgroupParent: config.linux?.cgroupParent ?? '' };
  const overhead = nriResources(config.linux?.overhead);
  const resources = nriResources(config.linux?.resources);
  if (overhead) linux.podOverhead = overhead;
  if (resources) linux.podResources = resources;
  linux.cgroupsPath = cgroupsPath(linux.cgroupParent ?? '', id);
  return {
    id,
    name: meta.name ?? '',
    uid: meta.uid ?? '',
    namespace: meta.namespace ?? '',
    labels: { ...(config.labels ?? {}) },
    annotations: { ...(config.annotations ?? {}) },
    runtimeHandler,
    linux,
    ips: [ip],
  };
}

const PROPAGATION_OPTION: Readonly<Record<number, string>> = {
  [CriMountPropagation.PRIVATE]: 'rprivate',
  [CriMountPropagation.HOST_TO_CONTAINER]: 'rslave',
  [CriMountPropagation.BIDIRECTIONAL]: 'rshared',
};

/** The NRI container a CreateContainer makes: command and args as one argv, mounts as containerd's bind mounts. */
export function containerOfConfig(id: string, pod: nri.IPodSandbox, config: cri.IContainerConfig): nri.IContainer {
  const resources = nriResources(config.linux?.resources);
  const linux: nri.ILinuxContainer = { cgroupsPath: cgroupsPath(pod.linux?.cgroupParent ?? '', id) };
  if (resources) linux.resources = resources;
  const oom = config.linux?.resources?.oomScoreAdj;
  if (oom) linux.oomScoreAdj = { value: oom };
  const ctr: nri.IContainer = {
    id,
    podSandboxId: pod.id ?? '',
    name: config.metadata?.name ?? '',
    labels: { ...(config.labels ?? {}) },
    annotations: { ...(config.annotations ?? {}) },
    args: [...(config.command ?? []), ...(config.args ?? [])],
    env: (config.envs ?? []).map(
      (kv) => `${kv.key ?? ''}=${Buffer.from(kv.value ?? new Uint8Array()).toString('utf8')}`,
    ),
    mounts: (config.mounts ?? []).map((m) => ({
      destination: m.containerPath ?? '',
      type: 'bind',
      source: m.hostPath ?? '',
      options: ['rbind', PROPAGATION_OPTION[m.propagation ?? 0] ?? 'rprivate', m.readonly ? 'ro' : 'rw'],
    })),
    linux,
  };
  if (config.CDIDevices?.length) ctr.CDIDevices = config.CDIDevices.map((d) => ({ name: d.name ?? '' }));
  return ctr;
}

/** cgroupfs's path, as containerd joins it (the driver RuntimeConfig reports). */
function cgroupsPath(parent: string, id: string): string {
  return parent ? `${parent.replace(/\/+$/, '')}/${id}` : id;
}

// ---- what CRI reports --------------------------------------------------------------

function podMetadata(pod: nri.IPodSandbox, rec: CriRecord | undefined): cri.IPodSandboxMetadata {
  return {
    name: rec?.name ?? pod.name ?? '',
    uid: pod.uid ?? '',
    namespace: pod.namespace ?? '',
    attempt: rec?.attempt ?? 0,
  };
}

export function criPod(
  pod: nri.IPodSandbox,
  rec: CriRecord | undefined,
  stopped: boolean,
  since: number,
): cri.IPodSandbox {
  return {
    id: pod.id ?? '',
    metadata: podMetadata(pod, rec),
    state: stopped ? CriPodState.NOTREADY : CriPodState.READY,
    createdAt: rec?.createdAt ?? since,
    labels: { ...(pod.labels ?? {}) },
    annotations: { ...(pod.annotations ?? {}) },
    runtimeHandler: pod.runtimeHandler ?? '',
  };
}

export function criPodStatus(
  pod: nri.IPodSandbox,
  rec: CriRecord | undefined,
  stopped: boolean,
  since: number,
): cri.IPodSandboxStatus {
  const [ip, ...more] = pod.ips ?? [];
  return {
    ...criPod(pod, rec, stopped, since),
    network: { ip: ip ?? '', additionalIps: more.map((x) => ({ ip: x })) },
    linux: { namespaces: { options: {} } },
  };
}

/** Verbose PodSandboxStatus info, as containerd's: its "info" key holds the sandbox as JSON. */
export function podInfo(
  pod: nri.IPodSandbox,
  rec: CriRecord | undefined,
  stopped: boolean,
  showResources = true,
): Record<string, string> {
  const linux = pod.linux ?? {};
  const current = linux.resources ?? linux.podResources;
  const info = {
    pid: pod.pid ?? 0,
    processStatus: stopped ? 'stopped' : 'running',
    netNamespaceClosed: stopped,
    runtimeHandler: pod.runtimeHandler ?? '',
    runtimeType: 'nrictl-sim',
    config: goJson(rec?.config) ?? {},
    runtimeSpec: { annotations: { ...(pod.annotations ?? {}) }, linux: { cgroupsPath: linux.cgroupsPath ?? '' } },
    // The pod's resources as they stand: an update lands in linux.resources (and the
    // overhead), while podResources keeps what the pod was created with, as containerd's
    // Synchronize does; containerd 2.3 reports the updated ones here.
    ...(showResources && linux.podOverhead
      ? { overhead: { linux: goJson(criResources(linux.podOverhead, undefined)) ?? {} } }
      : {}),
    ...(showResources && current ? { resources: { linux: goJson(criResources(current, undefined)) ?? {} } } : {}),
  };
  return { info: JSON.stringify(info) };
}

const CRI_STATE: Readonly<Record<number, number>> = {
  [nri.ContainerState.CONTAINER_UNKNOWN]: CriContainerState.UNKNOWN,
  [nri.ContainerState.CONTAINER_CREATED]: CriContainerState.CREATED,
  [nri.ContainerState.CONTAINER_PAUSED]: CriContainerState.RUNNING,
  [nri.ContainerState.CONTAINER_RUNNING]: CriContainerState.RUNNING,
  [nri.ContainerState.CONTAINER_STOPPED]: CriContainerState.EXITED,
};

export function criContainerState(ctr: nri.IContainer): number {
  return CRI_STATE[ctr.state ?? 0] ?? CriContainerState.UNKNOWN;
}

function containerMetadata(ctr: nri.IContainer, rec: CriRecord | undefined): cri.IContainerMetadata {
  return { name: rec?.name ?? ctr.name ?? '', attempt: rec?.attempt ?? 0 };
}

/**
 * The image of a container: as CreateContainer found it, else (a container the scenario
 * brought, which names none) the node's image `otherwise`. containerd and CRI-O always
 * have one, and the kubelet's client refuses a ContainerStatus without it.
 */
export interface ImageOf {
  name: string;
  id: string;
}

function imageOf(rec: CriRecord | undefined, otherwise: ImageOf): ImageOf {
  return rec?.image && rec.imageId ? { name: rec.image, id: rec.imageId } : otherwise;
}

/** A creation time the kubelet's client takes (it refuses 0): the container's, else CRI's, else the face's start. */
function createdAt(ctr: nri.IContainer, rec: CriRecord | undefined, since: number): number {
  return ctr.createdAt || rec?.createdAt || since;
}

export function criContainer(
  ctr: nri.IContainer,
  rec: CriRecord | undefined,
  since: number,
  otherwise: ImageOf,
): cri.IContainer {
  const image = imageOf(rec, otherwise);
  return {
    id: ctr.id ?? '',
    podSandboxId: ctr.podSandboxId ?? '',
    metadata: containerMetadata(ctr, rec),
    image: { image: image.name },
    imageRef: image.id,
    imageId: image.id,
    state: criContainerState(ctr),
    createdAt: createdAt(ctr, rec, since),
    labels: { ...(ctr.labels ?? {}) },
    annotations: { ...(ctr.annotations ?? {}) },
  };
}

/**
 * ContainerStatus as containerd gives it: labels, annotations and mounts as the CRI config
 * asked (for a container made through CRI), resources as they stand, adjustments and
 * updates included; the verbose info's runtimeSpec shows the container as adjusted.
 */
export function criContainerStatus(
  ctr: nri.IContainer,
  rec: CriRecord | undefined,
  since: number,
  otherwise: ImageOf,
): cri.IContainerStatus {
  const state = criContainerState(ctr);
  const config = rec?.config as cri.IContainerConfig | undefined;
  const image = imageOf(rec, otherwise);
  const status: cri.IContainerStatus = {
    id: ctr.id ?? '',
    metadata: containerMetadata(ctr, rec),
    state,
    createdAt: createdAt(ctr, rec, since),
    startedAt: ctr.startedAt ?? 0,
    finishedAt: ctr.finishedAt ?? 0,
    exitCode: ctr.exitCode ?? 0,
    image: { image: image.name },
    imageRef: image.id,
    imageId: image.id,
    reason: state === CriContainerState.EXITED ? ((ctr.exitCode ?? 0) === 0 ? 'Completed' : 'Error') : '',
    labels: { ...(config?.labels ?? ctr.labels ?? {}) },
    annotations: { ...(config?.annotations ?? ctr.annotations ?? {}) },
    mounts: config ? (config.mounts ?? []) : criMounts(ctr.mounts ?? []),
    logPath: rec?.logPath ?? '',
  };
  const resources = criResources(ctr.linux?.resources, getOptionalInt(ctr.linux?.oomScoreAdj));
  if (resources) status.resources = { linux: resources };
  return status;
}

function criMounts(mounts: nri.IMount[]): cri.IMount[] {
  return mounts.map((m) => {
    const opts = m.options ?? [];
    const propagation = opts.includes('rshared')
      ? CriMountPropagation.BIDIRECTIONAL
      : opts.includes('rslave')
        ? CriMountPropagation.HOST_TO_CONTAINER
        : CriMountPropagation.PRIVATE;
    return { containerPath: m.destination ?? '', hostPath: m.source ?? '', readonly: opts.includes('ro'), propagation };
  });
}

/** Verbose ContainerStatus info, as containerd's: "info" holds the config as sent and the OCI spec as adjusted. */
export function containerInfo(ctr: nri.IContainer, rec: CriRecord | undefined): Record<string, string> {
  const linux = ctr.linux ?? {};
  const spec = {
    ociVersion: '1.2.0',
    process: {
      args: ctr.args ?? [],
      env: ctr.env ?? [],
      ...(ctr.rlimits?.length
        ? { rlimits: ctr.rlimits.map((r) => ({ type: r.type ?? '', hard: r.hard ?? 0, soft: r.soft ?? 0 })) }
        : {}),
    },
    mounts: (ctr.mounts ?? []).map((m) => ({
      destination: m.destination ?? '',
      type: m.type ?? '',
      source: m.source ?? '',
      options: m.options ?? [],
    })),
    annotations: { ...(ctr.annotations ?? {}) },
    linux: {
      cgroupsPath: linux.cgroupsPath ?? '',
      ...(linux.resources ? { resources: ociResources(linux.resources) } : {}),
      ...(getOptionalInt(linux.oomScoreAdj) !== undefined ? { oomScoreAdj: getOptionalInt(linux.oomScoreAdj) } : {}),
    },
  };
  const info = {
    sandboxID: ctr.podSandboxId ?? '',
    pid: ctr.pid ?? 0,
    removing: false,
    runtimeType: 'nrictl-sim',
    config: goJson(rec?.config) ?? {},
    runtimeSpec: spec,
  };
  return { info: JSON.stringify(info) };
}
