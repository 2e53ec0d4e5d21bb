// The simulator's CRI face: each CRI call becomes the Runtime's lifecycle call that a
// scenario's step makes (runtime.ts), so plugins see the same NRI events and their
// adjustments land in the same state; what is CRI's own (ids, name reservations,
// metadata, images, the order in which containerd's CRI server stops and removes) is
// here. Reads (List*, *Status) do not take the runtime's lock: they answer while a
// plugin's hook is held, and do not see a pod or container whose creation hook has not
// returned, as on containerd.
import { randomBytes } from 'node:crypto';
import { nri } from '../../../api/index.js';
import {
  CriCgroupDriver,
  CriContainerState,
  CriPodState,
  CriStatus,
  GrpcCode,
  type cri,
  type CriHandlers,
} from '../../../cri/index.js';
import { StateError } from '../errors.js';
import { RuntimeRefusal, type Runtime } from '../runtime.js';
import { ImageStore, imageId } from './images.js';
import {
  containerInfo,
  containerOfConfig,
  criContainer,
  criContainerState,
  criContainerStatus,
  criPod,
  criPodStatus,
  podInfo,
  podOfConfig,
  type CriRecord,
  type ImageOf,
} from './objects.js';
import { nriResources } from './resources.js';
import { showResourcesAsAsked } from './status-resources.js';

export interface CriFaceOptions {
  /** What Version answers: the runtime imitated. */
  runtimeName: string;
  runtimeVersion: string;
  /** The scenario's images; undefined: every image is there. */
  images?: readonly string[] | undefined;
  /** The runtime dies (a preset's crash): its sockets stop answering, its plugins lose their connections. */
  goAway?: () => Promise<void>;
  /**
   * The node verifies image signatures (`sim --signature-policy`): CreateContainer without
   * user_specified_image is refused with these words (the preset's signaturePolicyRefusal).
   */
  unverifiableImage?: string | undefined;
}

const nowNs = (): number => Date.now() * 1_000_000;
/** The pause image the simulator names as its own (containerd 1.7's CRI Status says sandboxImage). */
const SIM_PAUSE_IMAGE = 'registry.k8s.io/pause:3.10';
const unknown = (message: string): CriStatus => new CriStatus(GrpcCode.UNKNOWN, message);

export class CriFace {
  private readonly podRecords = new Map<string, CriRecord>();
  /** Pods and containers whose RunPodSandbox / CreateContainer hooks run: only faults show them. */
  private readonly pendingPods = new Map<string, { pod: nri.IPodSandbox; done: Promise<unknown> }>();
  private readonly pendingContainers = new Map<string, nri.IContainer>();
  private readonly containerRecords = new Map<string, CriRecord>();
  /** Names reserved while a pod or container is made and for as long as it exists: name -> id. */
  private readonly reserved = new Map<string, string>();
  private readonly images: ImageStore;
  /** Containers whose resources an UpdateContainerResources set: their status shows them (statusResourcesAsAsked). */
  private readonly updatedResources = new Set<string>();
  /** Pods whose UpdatePodSandboxResources succeeded (quirks.podStatusResources). */
  private readonly updatedPods = new Set<string>();
  /** When the face started: the creation time of what the scenario brought. */
  private readonly since = nowNs();
  private nextIp = 2;

  constructor(
    private readonly runtime: Runtime,
    private readonly opts: CriFaceOptions,
  ) {
    this.images = new ImageStore(opts.images);
  }

  /** The image a container the scenario brought is shown with: the node's first image, else the pause image. */
  private get scenarioImage(): ImageOf {
    const ref = this.opts.images?.[0] ?? SIM_PAUSE_IMAGE;
    const name = this.images.resolve(ref) ?? ref;
    return { name, id: imageId(name) };
  }

  private get state() {
    return this.runtime.state;
  }

  handlers(): CriHandlers {
    const quirks = this.runtime.quirks;
    const h: CriHandlers = {
      Version: async () => ({
        version: '0.1.0',
        runtimeName: this.opts.runtimeName,
        runtimeVersion: this.opts.runtimeVersion,
        runtimeApiVersion: 'v1',
      }),
      Status: async (req) => {
        const info: Record<string, string> = {};
        if (req.verbose)
          info.config = JSON.stringify({
            simulator: 'nrictl sim',
            nriSocket: this.runtime.socketPath ?? '',
            nriVersion: this.runtime.vintage.nriVersion,
            sandboxImage: SIM_PAUSE_IMAGE,
          });
        return {
          status: {
            conditions: [
              { type: 'RuntimeReady', status: true },
              { type: 'NetworkReady', status: true },
            ],
          },
          runtimeHandlers: [{ name: '', features: {} }],
          info,
        };
      },
      RuntimeConfig: async () => ({ linux: { cgroupDriver: CriCgroupDriver.CGROUPFS } }),
      RunPodSandbox: (req) => this.runPodSandbox(req),
      StopPodSandbox: async (req) => {
        if (this.findPod(req.podSandboxId) === undefined && this.runtime.fault('relay-stop-unknown-pod'))
          await this.runtime.relayRefused('StopPodSandbox', { id: req.podSandboxId });
        await this.stopPod(this.mustPod(req.podSandboxId));
        return {};
      },
      RemovePodSandbox: (req) => this.removePodSandbox(req.podSandboxId),
      PodSandboxStatus: async (req) => {
        const pod = this.state.pod(this.mustPod(req.podSandboxId))!;
        const id = pod.id ?? '';
        const stopped = this.state.podStopped(id);
        const rec = this.podRecords.get(id);
        return {
          status: criPodStatus(pod, rec, stopped, this.since),
          info: req.verbose ? podInfo(pod, rec, stopped, this.showsPodResources(id)) : {},
          timestamp: nowNs(),
        };
      },
      ListPodSandbox: async (req) => ({ items: this.listPods(req.filter) }),
      CreateContainer: (req) => this.createContainer(req),
      StartContainer: async (req) => {
        if (this.findContainer(req.containerId) === undefined && this.runtime.fault('start-unknown-container-succeeds'))
          return {};
        const id = this.mustContainer(req.containerId);
        const ctr = this.state.mustContainer(id);
        if (criContainerState(ctr) !== CriContainerState.CREATED)
          throw unknown(`container "${id}" is in ${stateName(ctr)} state, not CONTAINER_CREATED`);
        await this.runtime.startContainer(id);
        return {};
      },
      StopContainer: async (req) => {
        await this.stopContainer(this.mustContainer(req.containerId));
        return {};
      },
      RemoveContainer: async (req) => {
        const id = this.findContainer(req.containerId);
        // Removing what is not there succeeds, as on containerd.
        if (id !== undefined) await this.removeContainer(id);
        return {};
      },
      ListContainers: async (req) => ({ containers: this.listContainers(req.filter) }),
      ContainerStatus: async (req) => {
        const id = this.mustContainer(req.containerId);
        const ctr = this.state.mustContainer(id);
        const rec = this.containerRecords.get(id);
        const status = criContainerStatus(ctr, rec, this.since, this.scenarioImage);
        if (quirks?.statusResourcesAsAsked && !this.updatedResources.has(id)) showResourcesAsAsked(status, rec);
        return { status, info: req.verbose && !quirks?.noStatusInfo ? containerInfo(ctr, rec) : {} };
      },
      UpdateContainerResources: async (req) => {
        const id = this.mustContainer(req.containerId);
        const ctr = this.state.mustContainer(id);
        const state = criContainerState(ctr);
        if (state !== CriContainerState.CREATED && state !== CriContainerState.RUNNING)
          throw unknown(
            `container "${id}" is in ${stateName(ctr)} state: only a created or running container is updated`,
          );
        if (quirks?.criUpdateCrashes) {
          await this.lifecycle(() => this.runtime.updateContainerAndDie(id, nriResources(req.linux) ?? {}));
          await this.opts.goAway?.();
          throw new CriStatus(GrpcCode.UNAVAILABLE, 'error reading from server: EOF');
        }
        const r = await this.lifecycle(() => this.runtime.updateContainer(id, nriResources(req.linux) ?? {}));
        if (!r.ok) throw unknown(`failed to update resources: NRI UpdateContainer failed: ${r.error.message}`);
        this.updatedResources.add(id);
        return {};
      },
      ListImages: async (req) => ({ images: this.images.list(req.filter?.image?.image || undefined) }),
      ImageStatus: async (req) => {
        const image = this.images.status(req.image?.image ?? '');
        return image ? { image, info: {} } : { info: {} };
      },
      PullImage: async (req) => ({ imageRef: this.images.pull(req.image?.image ?? '') }),
      ImageFsInfo: async () => ({
        imageFilesystems: [
          {
            timestamp: nowNs(),
            fsId: { mountpoint: '/var/lib/nrictl-sim/images' },
            usedBytes: { value: 0 },
            inodesUsed: { value: 0 },
          },
        ],
      }),
    };
    // A runtime whose cri-api predates the call has no handler: gRPC answers Unimplemented.
    if (!quirks?.criLacksPodUpdates) {
      h.UpdatePodSandboxResources = async (req) => {
        const id = this.findPod(req.podSandboxId) ?? req.podSandboxId;
        const r = await this.lifecycle(() =>
          this.runtime.updatePodSandbox(id, nriResources(req.resources) ?? {}, nriResources(req.overhead)),
        );
        if (r.ok) {
          this.updatedPods.add(id);
          return {};
        }
        if (r.error instanceof RuntimeRefusal)
          throw new CriStatus(
            r.error.status === 'unimplemented' ? GrpcCode.UNIMPLEMENTED : GrpcCode.UNKNOWN,
            r.error.message,
          );
        throw unknown(`NRI UpdatePodSandbox failed: ${r.error.message}`);
      };
    }
    return h;
  }

  // ---- pods -------------------------------------------------------------------------

  /** Whether verbose PodSandboxStatus info shows the pod's resources, as the runtime imitated does. */
  private showsPodResources(id: string): boolean {
    const rule = this.runtime.quirks?.podStatusResources;
    return rule === undefined || (rule === 'after-update' && this.updatedPods.has(id));
  }

  private async runPodSandbox(req: cri.RunPodSandboxRequest): Promise<cri.IRunPodSandboxResponse> {
    const config = req.config;
    const quirks = this.runtime.quirks;
    // iSulad names a pod from whatever metadata there is, none included.
    const meta = config?.metadata ?? (config && quirks?.acceptsMissingMetadata ? {} : undefined);
    if (!config || !meta) {
      if (config && this.runtime.fault('relay-run-pod-without-metadata'))
        await this.runtime.relayRefused('RunPodSandbox', podOfConfig(newId(), config, '', '10.88.255.254'));
      throw unknown('sandbox config must include metadata');
    }
    const name = [meta.name, meta.namespace, meta.uid, meta.attempt].join('_');
    const holder = this.runtime.fault('duplicate-pod-gets-new-id') ? undefined : this.reserved.get(name);
    if (holder !== undefined) {
      if (this.runtime.quirks?.criReturnsExistingSandbox && this.state.pod(holder)) return { podSandboxId: holder };
      throw unknown(`failed to reserve sandbox name "${name}": name "${name}" is reserved for "${holder}"`);
    }
    const id = newId();
    this.reserved.set(name, id);
    const ip = `10.88.${(this.nextIp >> 8) & 255}.${this.nextIp & 255}`;
    this.nextIp++;
    const pod = podOfConfig(id, config, req.runtimeHandler ?? '', ip);
    if (this.runtime.fault('pods-named-by-runtime') || quirks?.runtimeNames)
      pod.name = ['k8s', 'POD', meta.name ?? '', meta.namespace ?? '', meta.uid ?? '', meta.attempt ?? 0].join('_');
    // Listed from the start where the pod exists while its hook runs (quirks.podLiveDuringRunHook).
    this.podRecords.set(id, {
      name: meta.name ?? '',
      attempt: meta.attempt ?? 0,
      createdAt: nowNs(),
      runtimeHandler: req.runtimeHandler ?? '',
      config,
    });
    const running = this.lifecycle(() => this.runtime.runPodSandbox(pod))
      .catch((err: unknown) => ({ ok: false as const, error: err as Error }))
      .finally(() => this.pendingPods.delete(id));
    this.pendingPods.set(id, { pod, done: running });
    const r = await running;
    if (!r.ok) {
      if (!this.state.pod(id)) this.podRecords.delete(id);
      if (!this.runtime.fault('keep-pod-after-run-hook-error')) this.reserved.delete(name);
      if (r.error instanceof CriStatus) throw r.error;
      throw unknown(`NRI RunPodSandbox failed: ${r.error.message}`);
    }
    return { podSandboxId: id };
  }

  /**
   * StopPodSandbox as containerd's CRI does it: its running containers first, then the pod
   * (once; on every call where quirks.stopPodEventEveryTime). Where quirks.podTeardownOnlyPodEvents,
   * the containers stop without a word to plugins.
   */
  private async stopPod(id: string): Promise<void> {
    const quirks = this.runtime.quirks;
    const again = this.runtime.fault('stop-pod-event-twice') || quirks?.stopPodEventEveryTime === true;
    if (this.runtime.fault('stop-pod-hook-before-containers'))
      await this.lifecycle(() => this.runtime.stopPodSandbox(id));
    for (const c of this.state.containersOf(id))
      await this.stopContainer(c.id ?? '', !quirks?.podTeardownOnlyPodEvents);
    if (!this.state.podStopped(id) || again) await this.lifecycle(() => this.runtime.stopPodSandbox(id));
  }

  private async removePodSandbox(raw: string): Promise<cri.IRemovePodSandboxResponse> {
    const id = this.findPod(raw);
    if (id === undefined) return {}; // removing what is not there succeeds, as on containerd
    const quirks = this.runtime.quirks;
    // CRI-O stops and removes each container (removeContainer stops it first) and never the
    // pod; iSulad does neither where plugins would hear of it.
    if (
      !this.state.podStopped(id) &&
      !quirks?.removeSkipsPodStop &&
      !quirks?.podTeardownOnlyPodEvents &&
      !this.runtime.fault('remove-pod-without-stop')
    )
      await this.stopPod(id);
    if (!this.runtime.fault('containers-listed-during-remove-hook'))
      for (const c of this.state.containersOf(id))
        await this.removeContainer(c.id ?? '', !quirks?.podTeardownOnlyPodEvents);
    await this.lifecycle(() => this.runtime.removePodSandbox(id));
    this.podRecords.delete(id);
    this.updatedPods.delete(id);
    this.release(id);
    return {};
  }

  private listPods(filter: cri.IPodSandboxFilter | null | undefined): cri.IPodSandbox[] {
    const out: cri.IPodSandbox[] = [];
    const pending = this.runtime.fault('pod-listed-during-run-hook')
      ? [...this.pendingPods.values()].map((p) => p.pod)
      : [];
    for (const pod of [...this.state.pods(), ...pending]) {
      const id = pod.id ?? '';
      const stopped = this.state.podStopped(id);
      if (filter?.id && !id.startsWith(filter.id)) continue;
      if (filter?.state && (stopped ? CriPodState.NOTREADY : CriPodState.READY) !== (filter.state.state ?? 0)) continue;
      if (!matches(pod.labels, filter?.labelSelector)) continue;
      out.push(criPod(pod, this.podRecords.get(id), stopped, this.since));
    }
    return out;
  }

  // ---- containers -------------------------------------------------------------------

  private async createContainer(req: cri.CreateContainerRequest): Promise<cri.ICreateContainerResponse> {
    const podId =
      this.findPod(req.podSandboxId) ??
      (this.runtime.fault('pod-found-during-run-hook') && this.pendingPods.has(req.podSandboxId)
        ? req.podSandboxId
        : undefined);
    if (podId === undefined) {
      if (this.runtime.fault('relay-create-in-unknown-pod') && req.config)
        await this.runtime.relayRefused(
          'CreateContainer',
          podOfConfig(req.podSandboxId, req.sandboxConfig ?? {}, '', '10.88.255.254'),
          containerOfConfig(newId(), { id: req.podSandboxId }, req.config),
        );
      throw new CriStatus(GrpcCode.NOT_FOUND, `failed to find sandbox id "${req.podSandboxId}": not found`);
    }
    // The fault: the runtime knew the pod before its hook returned, and waits for it.
    if (!this.state.pod(podId)) await this.pendingPods.get(podId)?.done;
    if (
      this.state.podStopped(podId) &&
      !this.runtime.quirks?.createsInStoppedPod &&
      !this.runtime.fault('create-in-stopped-pod')
    )
      throw new CriStatus(
        GrpcCode.FAILED_PRECONDITION,
        `sandbox "${podId}" is not running: no container is created in it`,
      );
    const config = req.config;
    const quirks = this.runtime.quirks;
    const meta = config?.metadata ?? (config && quirks?.acceptsMissingMetadata ? {} : undefined);
    if (!config || !meta) {
      if (config && this.runtime.fault('relay-create-without-metadata'))
        await this.runtime.relayRefused(
          'CreateContainer',
          this.state.mustPod(podId),
          containerOfConfig(newId(), this.state.mustPod(podId), config),
        );
      throw unknown('container config must include metadata');
    }
    const image = this.images.use(config.image?.image ?? '');
    // CRI-O checks it once the image is found, before any container or NRI event exists.
    if (this.opts.unverifiableImage && !config.image?.userSpecifiedImage) throw unknown(this.opts.unverifiableImage);
    const pod = this.state.mustPod(podId);
    const name = [meta.name, pod.name, pod.namespace, pod.uid, meta.attempt].join('_');
    const holder = this.reserved.get(name);
    if (holder !== undefined)
      throw unknown(`failed to reserve container name "${name}": name "${name}" is reserved for "${holder}"`);
    const id = newId();
    this.reserved.set(name, id);
    const ctr = containerOfConfig(id, pod, config);
    this.pendingContainers.set(id, ctr);
    const r = await this.lifecycle(() =>
      this.runtime.createContainer(podId, ctr, quirks?.runtimeNames ? this.runtimeName(podId, req, meta) : undefined),
    ).finally(() => this.pendingContainers.delete(id));
    if (!r.ok) {
      if (!this.runtime.fault('keep-container-after-create-hook-error')) this.reserved.delete(name);
      // The runtime's own refusal is in its own words.
      if (r.error instanceof RuntimeRefusal) throw unknown(r.error.message);
      throw unknown(`failed to create containerd container: NRI CreateContainer failed: ${r.error.message}`);
    }
    const logDir =
      req.sandboxConfig?.logDirectory ??
      (this.podRecords.get(podId)?.config as cri.IPodSandboxConfig | undefined)?.logDirectory;
    this.containerRecords.set(id, {
      name: meta.name ?? '',
      attempt: meta.attempt ?? 0,
      createdAt: nowNs(),
      // containerd shows the image's first tag, whether asked for by name or by id.
      image: image.name,
      imageId: image.id,
      logPath: config.logPath ? `${logDir ? `${logDir.replace(/\/+$/, '')}/` : ''}${config.logPath}` : '',
      config,
    });
    return { containerId: id };
  }

  /**
   * iSulad's name for a container (v1_naming.cc MakeContainerName): k8s_<container>_<pod>_<namespace>_<uid>_<attempt>,
   * from the pod config the request carries, else the one the pod was made with.
   */
  private runtimeName(podId: string, req: cri.CreateContainerRequest, meta: cri.IContainerMetadata): string {
    const made = this.podRecords.get(podId)?.config as cri.IPodSandboxConfig | undefined;
    const pod = req.sandboxConfig?.metadata ?? made?.metadata ?? {};
    return ['k8s', meta.name ?? '', pod.name ?? '', pod.namespace ?? '', pod.uid ?? '', meta.attempt ?? 0].join('_');
  }

  /**
   * StopContainer: only a running container is stopped (and its plugins told, unless `tell`
   * is false: the runtime stops it on its own); the rest is done already.
   */
  private async stopContainer(id: string, tell = true): Promise<void> {
    const ctr = this.state.container(id);
    if (!ctr) return;
    const state = ctr.state ?? 0;
    if (state === nri.ContainerState.CONTAINER_RUNNING || state === nri.ContainerState.CONTAINER_PAUSED)
      await this.lifecycle(() => (tell ? this.runtime.stopContainer(id) : this.runtime.stopContainerSilently(id)));
  }

  /** RemoveContainer: a running container is stopped first, as containerd forces it; `tell` as for stopContainer. */
  private async removeContainer(id: string, tell = true): Promise<void> {
    await this.stopContainer(id, tell);
    if (this.state.container(id))
      await this.lifecycle(() => (tell ? this.runtime.removeContainer(id) : this.runtime.removeContainerSilently(id)));
    this.containerRecords.delete(id);
    this.updatedResources.delete(id);
    this.release(id);
  }

  private listContainers(filter: cri.IContainerFilter | null | undefined): cri.IContainer[] {
    const out: cri.IContainer[] = [];
    const pending = this.runtime.fault('container-listed-during-create-hook')
      ? [...this.pendingContainers.values()]
      : [];
    for (const ctr of [...this.state.containers(), ...pending]) {
      const id = ctr.id ?? '';
      if (filter?.id && !id.startsWith(filter.id)) continue;
      if (filter?.podSandboxId && !(ctr.podSandboxId ?? '').startsWith(filter.podSandboxId)) continue;
      if (filter?.state && criContainerState(ctr) !== (filter.state.state ?? 0)) continue;
      if (!matches(ctr.labels, filter?.labelSelector)) continue;
      out.push(criContainer(ctr, this.containerRecords.get(id), this.since, this.scenarioImage));
    }
    return out;
  }

  // ---- ids, names, errors -----------------------------------------------------------

  /** A pod by its id or a unique prefix of it, as containerd's store finds one; undefined when none. */
  private findPod(raw: string): string | undefined {
    return findId(raw, this.state.pod(raw) !== undefined, () => this.state.pods().map((p) => p.id ?? ''), 'sandbox');
  }

  private mustPod(raw: string): string {
    const id = this.findPod(raw);
    if (id === undefined)
      throw new CriStatus(GrpcCode.NOT_FOUND, `an error occurred when try to find sandbox "${raw}": not found`);
    return id;
  }

  private findContainer(raw: string): string | undefined {
    return findId(
      raw,
      this.state.container(raw) !== undefined,
      () => this.state.containers().map((c) => c.id ?? ''),
      'container',
    );
  }

  private mustContainer(raw: string): string {
    const id = this.findContainer(raw);
    if (id === undefined)
      throw new CriStatus(GrpcCode.NOT_FOUND, `an error occurred when try to find container "${raw}": not found`);
    return id;
  }

  private release(id: string): void {
    for (const [name, holder] of this.reserved) if (holder === id) this.reserved.delete(name);
  }

  /** A lifecycle call whose StateError (a pod or container gone meanwhile) is CRI's NotFound. */
  private async lifecycle<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof StateError)
        throw new CriStatus(err.kind === 'not-found' ? GrpcCode.NOT_FOUND : GrpcCode.UNKNOWN, err.message);
      throw err;
    }
  }
}

function findId(raw: string, exact: boolean, all: () => string[], what: string): string | undefined {
  if (exact) return raw;
  if (raw === '') return undefined;
  const found = all().filter((id) => id.startsWith(raw));
  if (found.length > 1) throw unknown(`${what} id prefix "${raw}" is ambiguous: it matches ${found.length} ids`);
  return found[0];
}

function matches(
  labels: Record<string, string> | null | undefined,
  selector: Record<string, string> | null | undefined,
): boolean {
  if (!selector) return true;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

function stateName(ctr: nri.IContainer): string {
  return ['CONTAINER_CREATED', 'CONTAINER_RUNNING', 'CONTAINER_EXITED', 'CONTAINER_UNKNOWN'][criContainerState(ctr)];
}

/** A 64-hex-digit id, as containerd and CRI-O make them. */
function newId(): string {
  return randomBytes(32).toString('hex');
}
