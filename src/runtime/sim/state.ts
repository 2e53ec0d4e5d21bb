// The simulated runtime's view of the node: pods and containers as NRI describes
// them. Lifecycle steps mutate it; Synchronize and dumps read snapshots of it.
import { nri, overlayResources, plainCopy } from '../../api/index.js';
import { StateError } from './errors.js';

export type PodSandbox = nri.IPodSandbox;
export type Container = nri.IContainer;

function nowNs(): number {
  // Nanoseconds since the epoch, as NRI's created_at/started_at; a double keeps ms precision, which is enough here.
  return Date.now() * 1_000_000;
}

export class SimState {
  private readonly podsById = new Map<string, PodSandbox>();
  private readonly containersById = new Map<string, Container>();
  /** Pods that were stopped: a CRI runtime reports them NOTREADY until they are removed. NRI's pod has no state. */
  private readonly stoppedPods = new Set<string>();

  constructor(init?: { pods?: PodSandbox[]; containers?: Container[] }) {
    for (const p of init?.pods ?? []) this.addPod(p);
    for (const c of init?.containers ?? []) this.addContainer(c);
  }

  get podCount(): number {
    return this.podsById.size;
  }

  get containerCount(): number {
    return this.containersById.size;
  }

  pod(id: string): PodSandbox | undefined {
    return this.podsById.get(id);
  }

  container(id: string): Container | undefined {
    return this.containersById.get(id);
  }

  mustPod(id: string): PodSandbox {
    const p = this.podsById.get(id);
    if (!p) throw new StateError(`no pod sandbox "${id}" in the simulated state`, 'unknown-pod', id);
    return p;
  }

  mustContainer(id: string): Container {
    const c = this.containersById.get(id);
    if (!c) throw new StateError(`no container "${id}" in the simulated state`, 'unknown-container', id);
    return c;
  }

  pods(): PodSandbox[] {
    return [...this.podsById.values()];
  }

  containers(): Container[] {
    return [...this.containersById.values()];
  }

  containersOf(podId: string): Container[] {
    return this.containers().filter((c) => c.podSandboxId === podId);
  }

  /**
   * Deep copies in insertion order: what a Synchronize or a dump sends, safe from later
   * mutation; `keep` leaves out the containers a runtime does not hand over.
   */
  snapshot(keep?: (c: Container) => boolean): { pods: PodSandbox[]; containers: Container[] } {
    const containers = keep ? this.containers().filter(keep) : this.containers();
    return { pods: plainCopy(this.pods()), containers: plainCopy(containers) };
  }

  addPod(pod: PodSandbox): PodSandbox {
    return this.adoptPod(plainCopy(pod));
  }

  /** Adds `pod` itself rather than a copy, for a caller that made it for the state (the runtime's RunPodSandbox). */
  adoptPod(pod: PodSandbox): PodSandbox {
    const id = pod.id ?? '';
    this.mayAddPod(id);
    this.podsById.set(id, pod);
    return pod;
  }

  /** Throws the StateError that adding a pod of this id would. */
  mayAddPod(id: string): void {
    if (!id) throw new StateError('a pod sandbox needs an id', 'unknown-pod', id);
    if (this.podsById.has(id)) throw new StateError(`pod sandbox "${id}" already exists`, 'duplicate', id);
  }

  /** Whether the pod was stopped (StopPodSandbox): no longer ready. */
  podStopped(id: string): boolean {
    return this.stoppedPods.has(id);
  }

  markPodStopped(id: string): void {
    this.mustPod(id);
    this.stoppedPods.add(id);
  }

  addContainer(ctr: Container): Container {
    return this.adoptContainer(plainCopy(ctr));
  }

  /**
   * Adds `ctr` itself rather than a copy: for a caller that made it for the state and
   * keeps no reference it will change (the runtime's CreateContainer, which would
   * otherwise copy each new container twice).
   */
  adoptContainer(ctr: Container): Container {
    const id = ctr.id ?? '';
    if (!id) throw new StateError('a container needs an id', 'unknown-container', id);
    if (this.containersById.has(id)) throw new StateError(`container "${id}" already exists`, 'duplicate', id);
    this.mustPod(ctr.podSandboxId ?? '');
    this.containersById.set(id, ctr);
    return ctr;
  }

  /** Moves a container to a new state and stamps the matching time, as a runtime's status would. */
  setContainerState(id: string, state: nri.ContainerState, exitCode?: number): Container {
    const c = this.mustContainer(id);
    c.state = state;
    if (state === nri.ContainerState.CONTAINER_CREATED && !c.createdAt) c.createdAt = nowNs();
    if (state === nri.ContainerState.CONTAINER_RUNNING) c.startedAt = nowNs();
    if (state === nri.ContainerState.CONTAINER_STOPPED) {
      c.finishedAt = nowNs();
      if (exitCode !== undefined) c.exitCode = exitCode;
    }
    return c;
  }

  /** Overlays the fields that `resources` sets on the container's linux resources. */
  applyLinuxResources(id: string, resources: nri.ILinuxResources): Container {
    const c = this.mustContainer(id);
    // Object.assign, not a spread followed by more properties: see hidden classes in README.md.
    c.linux = Object.assign({}, c.linux, { resources: overlayResources(c.linux?.resources, resources) });
    return c;
  }

  /** Overlays pod-level resources (UpdatePodSandbox). */
  applyPodResources(id: string, resources: nri.ILinuxResources, overhead?: nri.ILinuxResources): PodSandbox {
    const p = this.mustPod(id);
    const linux: nri.ILinuxPodSandbox = Object.assign({}, p.linux);
    linux.resources = overlayResources(linux.resources, resources);
    if (overhead) linux.podOverhead = overlayResources(linux.podOverhead, overhead);
    p.linux = linux;
    return p;
  }

  removeContainer(id: string): Container {
    const c = this.mustContainer(id);
    this.containersById.delete(id);
    return c;
  }

  /** Removes a pod; like a CRI runtime, refuses while containers still belong to it unless `withContainers`. */
  removePod(id: string, opts?: { withContainers?: boolean }): { pod: PodSandbox; containers: Container[] } {
    const pod = this.mustPod(id);
    const containers = this.containersOf(id);
    if (containers.length > 0 && !opts?.withContainers) {
      throw new StateError(
        `pod sandbox "${id}" still has containers (${containers.map((c) => c.id).join(', ')}); remove them first`,
        'pod-has-containers',
        id,
      );
    }
    for (const c of containers) this.containersById.delete(c.id ?? '');
    this.podsById.delete(id);
    this.stoppedPods.delete(id);
    return { pod, containers };
  }
}
