// The simulated container runtime: the pods and containers of a node (SimState) and
// the NRI adaptation it embeds, as containerd embeds containerd/nri. Each lifecycle
// call changes the state and has the adaptation relay the event around it, under the
// adaptation's one lock; it applies what the plugins' merged answers adjust and update,
// and reports every step as a SimEvent.
import { EventEmitter } from 'node:events';
import { Event, nri, plainCopy } from '../../api/index.js';
import {
  Adaptation,
  ConflictError,
  MergeError,
  NO_LATE_ANSWERS,
  PluginConnectionError,
  PreStartFailedError,
  RuntimeError,
  ValidationRejectedError,
  ValidatorFailedError,
  type AdaptationOptions,
  type PluginInfo,
  type RuntimeVintage,
} from '../adaptation/index.js';
import { stamp, type SimEvent, type SimEventInit, type UpdateSource } from '../events.js';
import { applyAdjustment, applyUpdates } from './apply.js';
import type { RuntimeQuirks } from './presets.js';
import { exitCodeOf } from './exits.js';
import type { SimFault } from './faults.js';
import { DOCKER_UPDATES_REFUSED, dockerContainer, dockerPod, dockerRefusal, dockerSnapshot } from './docker.js';
import {
  dropNewEnv,
  emptyCpusetRefusal,
  labelledName,
  sparseCreateRequest,
  wouldAbortOnCreate,
  wouldCrashOnUpdate,
} from './quirks.js';
import { runtimeStartError } from './start-failure.js';
import { handedOverByGoRuntimes, sparseSyncContainers } from './sync.js';
import { SimNode } from './node.js';
import { seededRandom } from './seeded-random.js';
import type { SimState } from './state.js';

export interface RuntimeOptions extends AdaptationOptions {
  /** Where the runtime imitated departs from the Go adaptation (a preset's quirks). */
  quirks?: RuntimeQuirks;
  /** Clauses of the NRI contract this runtime breaks on purpose (faults.ts): for testing the checks. */
  faults?: readonly SimFault[];
}

export type CreateResult =
  | { ok: true; container: nri.IContainer; adjust?: nri.IContainerAdjustment; updates: nri.IContainerUpdate[] }
  | { ok: false; error: Error };

/**
 * How a lifecycle call that the runtime may fail ended: a plugin's error (or the
 * runtime's own refusal) fails it, as it fails the CRI call on containerd and CRI-O.
 * The failure is also reported as an event.
 */
export type LifecycleResult = { ok: true } | { ok: false; error: Error };

/** UpdateContainer's end: the updates applied (the requested one last), or why nothing was. */
export type UpdateResult = { ok: true; updates: nri.IContainerUpdate[] } | { ok: false; error: Error };

/** The runtime itself refused a call before NRI heard of it (a preset's quirk); `status` is how its CRI says so. */
export class RuntimeRefusal extends RuntimeError {
  constructor(
    message: string,
    event: string,
    readonly status: 'unimplemented' | 'unknown',
  ) {
    super(message, event);
  }
}

const OK: LifecycleResult = Object.freeze({ ok: true });

type CtrRequest = { pod: nri.IPodSandbox; container: nri.IContainer };

/** Emits 'event' (SimEvent) for everything that happens. */
export class Runtime extends EventEmitter {
  private readonly nri: Adaptation;
  /** Containers that exit by themselves, between their start and their exit. */
  private readonly exiting = new Set<NodeJS.Timeout>();
  /** The node's process table: the sandboxes' shims and pause processes, as conformance looks at them. */
  readonly node: SimNode;

  constructor(
    readonly state: SimState,
    private readonly opts: RuntimeOptions = {},
  ) {
    super();
    const quirks = opts.quirks;
    this.node = new SimNode(quirks?.runtime);
    const nameLabel = quirks?.containerNameLabel;
    if (nameLabel) for (const c of state.containers()) c.name = labelledName(nameLabel, c);
    this.nri = new Adaptation(
      {
        events: this,
        snapshot: quirks?.docker
          ? () => dockerSnapshot(this.state.snapshot())
          : opts.faults?.includes('sync-omits-containers')
            ? () => this.state.snapshot(() => false)
            : quirks?.sparseSync
              ? () => {
                  const snap = this.state.snapshot();
                  return { pods: snap.pods, containers: sparseSyncContainers(snap.containers) };
                }
              : () => this.state.snapshot(handedOverByGoRuntimes),
        update: (plugin, updates, source) => this.applyUpdates(plugin, updates, source),
        ...(quirks?.createNeedsAdjust
          ? { refuseCreateAnswer: (plugin, rsp) => wouldAbortOnCreate(quirks, plugin, rsp) }
          : {}),
        ...(quirks?.pluginUpdatesCrash
          ? { refuseUpdateRequest: (plugin, req) => wouldCrashOnUpdate(quirks, plugin, req) }
          : {}),
        ...(quirks?.docker ? { failUpdateRequest: () => new Error(DOCKER_UPDATES_REFUSED) } : {}),
        ...(quirks?.startFailureText ? { startFailureText: quirks.startFailureText } : {}),
        ...(quirks?.dropOnErrorAnswer ? { dropOnErrorAnswer: quirks.dropOnErrorAnswer } : {}),
      },
      {
        ...opts,
        ...(opts.preStartFailureFatal === undefined && quirks?.preStartFailureFatal !== undefined
          ? { preStartFailureFatal: quirks.preStartFailureFatal }
          : {}),
        ...(opts.syncLaunchedPlugins === undefined && quirks?.syncLaunchedPlugins !== undefined
          ? { syncLaunchedPlugins: quirks.syncLaunchedPlugins }
          : {}),
        ...(opts.faults?.includes('plugins-in-registration-order')
          ? { pluginOrder: 'joined' as const }
          : quirks?.pluginsByName
            ? { pluginOrder: 'name' as const }
            : {}),
        ...(quirks?.joinAfterSync || opts.faults?.includes('join-after-sync') ? { joinAfterSync: true } : {}),
        ...(opts.lateAnswers === undefined && quirks?.noLateAnswers ? { lateAnswers: NO_LATE_ANSWERS } : {}),
        ...(quirks?.externalJoinsAtConnect
          ? { joinAtConnect: true, externalName: opts.externalName ?? randomExternalNames() }
          : {}),
      },
    );
  }

  /** Whether this runtime breaks the clause on purpose (faults.ts). */
  fault(f: SimFault): boolean {
    return this.opts.faults?.includes(f) ?? false;
  }

  get socketPath(): string | undefined {
    return this.nri.socketPath;
  }

  get registrationTimeoutMs(): number {
    return this.nri.registrationTimeoutMs;
  }

  get requestTimeoutMs(): number {
    return this.nri.requestTimeoutMs;
  }

  get vintage(): RuntimeVintage {
    return this.nri.vintage;
  }

  /** Where the runtime imitated departs from the Go adaptation (its preset's quirks), if anywhere. */
  get quirks(): RuntimeQuirks | undefined {
    return this.opts.quirks;
  }

  /**
   * Launches pre-started plugins, then listens, in the runtime's order. Where a pre-started
   * plugin that fails to start is fatal (NRI before v0.7), rejects with RuntimeStartError:
   * the runtime is down, nothing listens or runs.
   */
  async start(): Promise<{ socketPath: string | undefined }> {
    try {
      return await this.nri.start();
    } catch (err) {
      if (err instanceof PreStartFailedError) throw runtimeStartError(this.opts, this.vintage.nriVersion, err);
      throw err;
    }
  }

  /** The live plugins in invocation order. */
  plugins(): PluginInfo[] {
    return this.nri.plugins();
  }

  /** Stops listening, disconnects external plugins and stops launched ones. */
  stop(): Promise<void> {
    for (const t of this.exiting) clearTimeout(t);
    this.exiting.clear();
    return this.nri.stop();
  }

  /**
   * Relays a pod event or post-event, unless the runtime imitated never sends it: Docker
   * sends CreateContainer alone.
   */
  private notify(event: Event, request: { pod: nri.IPodSandbox; container?: nri.IContainer }): Promise<void> {
    if (this.opts.quirks?.docker) return Promise.resolve();
    return this.nri.notify(event, request);
  }

  /** Relays an event or post-event; a plugin's error is noted (an error event) and given back, not thrown. */
  private async relay(
    event: Event,
    request: { pod: nri.IPodSandbox; container?: nri.IContainer },
    what: string,
    ids: { pod?: string; container?: string },
  ): Promise<Error | undefined> {
    try {
      await this.notify(event, request);
      return undefined;
    } catch (err) {
      this.noteError(what, err, ids);
      return err as Error;
    }
  }

  private report(e: SimEventInit): void {
    if (this.observed) this.emit('event', stamp(e));
  }

  /** Whether anyone listens for events: the per-call ones are not even built for nobody. */
  private get observed(): boolean {
    return this.listenerCount('event') > 0;
  }

  private stateChanged(event: string, ids: { pod?: string; container?: string }, state?: string): void {
    if (!this.observed) return;
    // Field for field what stamp() makes of { type, event, ...ids, state }, without its spreads.
    const e: SimEvent & { type: 'state-changed' } = { time: Date.now(), type: 'state-changed', event };
    if (ids.pod !== undefined) e.pod = ids.pod;
    if (ids.container !== undefined) e.container = ids.container;
    if (state) e.state = state;
    this.emit('event', e);
  }

  private noteError(event: string, err: unknown, ids: { pod?: string; container?: string } = {}): void {
    const plugin =
      (err as { cause?: unknown }).cause instanceof PluginConnectionError
        ? (err as { cause: PluginConnectionError }).cause.plugin
        : undefined;
    this.report({
      type: 'error',
      event,
      ...(plugin ? { plugin } : {}),
      ...(ids.container ? { container: ids.container } : {}),
      message: (err as Error).message,
    });
  }

  private noteConflict(err: ConflictError, id: string): void {
    this.report({
      type: 'conflict',
      container: err.containerId || id,
      field: err.field,
      ...(err.key !== undefined ? { key: err.key } : {}),
      plugins: err.plugins,
      message: err.message,
    });
  }

  // ---- pod lifecycle -------------------------------------------------------------

  /**
   * RunPodSandbox: the plugins are told first and the pod becomes visible (listed, ready,
   * synchronized) only once they all answered, as containerd adds a sandbox to its store
   * after the NRI hook. A plugin's error fails the call and leaves no pod behind.
   */
  runPodSandbox(pod: nri.IPodSandbox): Promise<LifecycleResult> {
    if (this.opts.quirks?.podLiveDuringRunHook) return this.runLivePodSandbox(pod);
    return this.nri.locked(async () => {
      const id = pod.id ?? '';
      this.state.mayAddPod(id);
      const p = plainCopy(pod);
      this.node.startSandbox(id, pod.linux?.cgroupParent ?? '');
      const failed = await this.relay(Event.RUN_POD_SANDBOX, { pod: p }, 'RunPodSandbox', { pod: id });
      if (failed) {
        if (this.fault('keep-pod-after-run-hook-error')) this.state.adoptPod(p);
        else if (!this.opts.quirks?.leaksRefusedSandbox) this.node.endSandbox(id);
        return { ok: false, error: failed };
      }
      this.state.adoptPod(p);
      this.stateChanged('RunPodSandbox', { pod: id }, 'READY');
      return OK;
    });
  }

  /**
   * RunPodSandbox where the pod is made before plugins hear of it (quirks.podLiveDuringRunHook):
   * listed, ready and taking containers while the hook runs, the hook relayed outside the
   * lock as iSulad's NRI takes none; a plugin's error fails the call and the pod stays.
   */
  private async runLivePodSandbox(pod: nri.IPodSandbox): Promise<LifecycleResult> {
    const id = pod.id ?? '';
    const p = plainCopy(pod);
    await this.nri.locked(async () => {
      this.state.mayAddPod(id);
      this.node.startSandbox(id, pod.linux?.cgroupParent ?? '');
      this.state.adoptPod(p);
      this.stateChanged('RunPodSandbox', { pod: id }, 'READY');
    });
    const failed = await this.relay(Event.RUN_POD_SANDBOX, { pod: p }, 'RunPodSandbox', { pod: id });
    return failed ? { ok: false, error: failed } : OK;
  }

  /** UpdatePodSandbox, then PostUpdatePodSandbox, where the runtime imitated sends them. */
  updatePodSandbox(
    id: string,
    resources: nri.ILinuxResources,
    overhead?: nri.ILinuxResources,
  ): Promise<LifecycleResult> {
    return this.nri.locked(async () => {
      const quirks = this.opts.quirks;
      if (quirks?.podUpdateRefused) {
        // The runtime's CRI refuses the update before it looks at the pod or NRI hears of it.
        const { message, status } = quirks.podUpdateRefused;
        const refusal = new RuntimeRefusal(message, 'UpdatePodSandbox', status);
        this.noteError('UpdatePodSandbox', refusal, { pod: id });
        return { ok: false, error: refusal };
      }
      const pod = this.state.mustPod(id);
      if (!this.vintage.podSandboxUpdates || quirks?.podUpdateEvents === 'none' || quirks?.docker) {
        // Runtimes before v0.10 have no pod sandbox update events: the change just happens.
        this.state.applyPodResources(id, resources, overhead);
        this.stateChanged('UpdatePodSandbox', { pod: id });
        return OK;
      }
      const req: nri.IUpdatePodSandboxRequest = {
        pod,
        linuxResources: resources,
        ...(overhead ? { overheadLinuxResources: overhead } : {}),
      };
      try {
        await this.nri.updatePodSandbox(req);
      } catch (err) {
        this.noteError('UpdatePodSandbox', err, { pod: id });
        if (this.fault('apply-rejected-pod-update')) this.state.applyPodResources(id, resources, overhead);
        if (!this.fault('ignore-update-pod-error')) return { ok: false, error: err as Error };
      }
      const updated = this.state.applyPodResources(id, resources, overhead);
      this.stateChanged('UpdatePodSandbox', { pod: id });
      // CRI-O never sends PostUpdatePodSandbox.
      if (quirks?.podUpdateEvents === 'update-only' || this.fault('skip-post-update-pod-event')) return OK;
      const postError = await this.relay(Event.POST_UPDATE_POD_SANDBOX, { pod: updated }, 'PostUpdatePodSandbox', {
        pod: id,
      });
      if (postError && this.fault('post-update-pod-error-fails-call')) return { ok: false, error: postError };
      return OK;
    });
  }

  /** Stops a container without telling plugins: the runtime stops a pod's containers itself (quirks.podTeardownOnlyPodEvents). */
  stopContainerSilently(id: string): Promise<void> {
    return this.nri.locked(async () => this.stopped(this.ctr(id), 0, false));
  }

  /** Removes a container without telling plugins (quirks.podTeardownOnlyPodEvents). */
  removeContainerSilently(id: string): Promise<void> {
    return this.nri.locked(async () => {
      const { pod } = this.ctr(id);
      this.state.removeContainer(id);
      this.stateChanged('RemoveContainer', { pod: pod.id ?? '', container: id });
    });
  }

  stopPodSandbox(id: string): Promise<void> {
    return this.nri.locked(async () => {
      const pod = this.state.mustPod(id);
      if (!this.fault('skip-stop-pod-event')) {
        const failed = await this.relay(Event.STOP_POD_SANDBOX, { pod }, 'StopPodSandbox', { pod: id });
        if (failed && this.fault('stop-pod-aborts-on-plugin-error')) throw failed;
      }
      this.state.markPodStopped(id);
      this.node.stopSandbox(id);
      this.stateChanged('StopPodSandbox', { pod: id }, 'NOTREADY');
    });
  }

  removePodSandbox(id: string): Promise<void> {
    return this.nri.locked(async () => {
      const pod = this.state.mustPod(id);
      const failed = await this.relay(Event.REMOVE_POD_SANDBOX, { pod }, 'RemovePodSandbox', { pod: id });
      if (failed && this.fault('remove-pod-aborts-on-plugin-error')) throw failed;
      this.state.removePod(id, { withContainers: true });
      this.node.endSandbox(id);
      this.stateChanged('RemovePodSandbox', { pod: id });
    });
  }

  /**
   * A fault's hook for a request the runtime then refuses (faults.ts relay-*): the event is
   * relayed for a pod (and container) the runtime does not have, and the answer dropped.
   */
  relayRefused(
    event: 'RunPodSandbox' | 'StopPodSandbox' | 'CreateContainer',
    pod: nri.IPodSandbox,
    ctr?: nri.IContainer,
  ): Promise<void> {
    return this.nri.locked(async () => {
      const relay =
        event === 'CreateContainer'
          ? this.nri.createContainer(pod, ctr ?? {}, ctr ?? {})
          : this.notify(event === 'RunPodSandbox' ? Event.RUN_POD_SANDBOX : Event.STOP_POD_SANDBOX, { pod });
      await relay.catch(() => {});
    });
  }

  // ---- container lifecycle -------------------------------------------------------

  /**
   * CreateContainer (merged adjustments; a conflict fails the creation), then PostCreateContainer.
   * `keptAs`: the name the runtime keeps the container under once made, where plugins see
   * the CRI name in CreateContainer only (quirks.runtimeNames).
   */
  createContainer(podId: string, ctr: nri.IContainer, keptAs?: string): Promise<CreateResult> {
    return this.nri.locked(async () => {
      const pod = this.state.mustPod(podId);
      const id = ctr.id ?? '';
      if (this.state.container(id)) throw new RuntimeError(`container "${id}" already exists`, 'CreateContainer');
      // Our one copy of the caller's container. Nothing below changes it (the collector
      // merges into a copy of its own), so it is also what validators are shown as the
      // original, and then it becomes the state's container.
      // Fields are assigned, not spread in: see hidden classes in README.md.
      const proposed: nri.IContainer = plainCopy(ctr);
      proposed.podSandboxId = podId;
      proposed.state = nri.ContainerState.CONTAINER_UNKNOWN;
      const quirks = this.opts.quirks;
      if (quirks?.containerNameLabel) proposed.name = labelledName(quirks.containerNameLabel, proposed);
      let merged;
      try {
        if (quirks?.docker) {
          const sent = dockerContainer(proposed);
          merged = await this.nri.createContainer(dockerPod(proposed), sent, sent);
          const refusal = dockerRefusal(merged);
          if (refusal) throw new RuntimeError(refusal, 'CreateContainer');
        } else {
          const sent = quirks?.sparseCreateRequest ? sparseCreateRequest(proposed) : proposed;
          merged = await this.nri.createContainer(pod, sent, proposed);
          const refused = quirks?.emptyCpusetRefused ? emptyCpusetRefusal(merged.adjust) : undefined;
          if (refused) throw new RuntimeRefusal(refused, 'CreateContainer', 'unknown');
        }
      } catch (err) {
        this.noteCreateFailure(err, id);
        if (this.fault('keep-container-after-create-hook-error')) {
          this.state.adoptContainer(proposed);
          this.state.setContainerState(id, nri.ContainerState.CONTAINER_CREATED);
        }
        return { ok: false, error: err as Error };
      }
      if (merged.adjust) dropAdjusted(this, merged.adjust);
      if (merged.adjust && this.opts.quirks?.ignoresNewEnv) {
        const sentId = (merged.request as nri.ICreateContainerRequest).container?.id ?? '';
        for (const dropped of dropNewEnv(this.opts.quirks, merged.adjust, proposed, (key) =>
          merged.owners.owner(sentId, nri.Field.Env, key),
        )) {
          this.report({ type: 'ignored', container: id, ...dropped });
        }
      }
      if (keptAs !== undefined) proposed.name = keptAs;
      this.state.adoptContainer(proposed);
      if (merged.adjust) applyAdjustment(this.state, id, merged.adjust);
      const created = this.state.setContainerState(id, nri.ContainerState.CONTAINER_CREATED);
      this.applyUpdates('runtime', merged.updates, 'create');
      this.stateChanged('CreateContainer', { pod: podId, container: id }, 'CREATED');
      await this.relay(Event.POST_CREATE_CONTAINER, { pod, container: created }, 'PostCreateContainer', {
        container: id,
      });
      return {
        ok: true,
        container: plainCopy(created),
        ...(merged.adjust ? { adjust: merged.adjust } : {}),
        updates: merged.updates,
      };
    });
  }

  private noteCreateFailure(err: unknown, id: string): void {
    if (err instanceof ConflictError) this.noteConflict(err, id);
    else if (err instanceof ValidationRejectedError) {
      this.report({ type: 'rejected', plugin: err.plugin, container: id, reason: err.reason, message: err.message });
    } else if (err instanceof ValidatorFailedError) {
      this.report({
        type: 'error',
        plugin: err.plugin,
        event: 'ValidateContainerAdjustment',
        container: id,
        message: err.message,
      });
    } else if (err instanceof MergeError) {
      this.report({ type: 'error', plugin: err.plugin, event: 'CreateContainer', container: id, message: err.message });
    } else this.noteError('CreateContainer', err, { container: id });
  }

  startContainer(id: string): Promise<void> {
    return this.nri.locked(async () => {
      const { pod, container } = this.ctr(id);
      if (!this.fault('skip-start-container-event'))
        await this.relay(Event.START_CONTAINER, { pod, container }, 'StartContainer', { container: id });
      const running = this.state.setContainerState(id, nri.ContainerState.CONTAINER_RUNNING);
      this.stateChanged('StartContainer', { pod: pod.id ?? '', container: id }, 'RUNNING');
      if (!this.fault('skip-post-start-event'))
        await this.relay(Event.POST_START_CONTAINER, { pod, container: running }, 'PostStartContainer', {
          container: id,
        });
      const code = exitCodeOf(running.args ?? []);
      if (code !== undefined) this.exitLater(id, code);
    });
  }

  /**
   * A container whose command ends by itself (exits.ts) exits once its start is done: its
   * plugins get StopContainer and it is CONTAINER_EXITED with the code, as containerd
   * reports a task's exit (WithContainerExit on the exit event).
   */
  private exitLater(id: string, code: number): void {
    const timer = setTimeout(() => {
      this.exiting.delete(timer);
      void this.nri
        .locked(async () => {
          if (this.state.container(id)?.state !== nri.ContainerState.CONTAINER_RUNNING) return;
          const relay = !this.fault('no-stop-event-on-exit') && !this.opts.quirks?.noStopEventOnExit;
          await this.stopped(this.ctr(id), code, relay);
        })
        .catch(() => {});
    }, 1);
    this.exiting.add(timer);
  }

  /**
   * UpdateContainer (plugins may amend the update or update others), then
   * PostUpdateContainer. A plugin's error or a conflict fails it: nothing is applied.
   */
  updateContainer(id: string, resources: nri.ILinuxResources): Promise<UpdateResult> {
    return this.nri.locked(async () => {
      const { pod, container } = this.ctr(id);
      let merged;
      try {
        // Docker relays no UpdateContainer: the update just happens.
        merged = this.opts.quirks?.docker
          ? { updates: [] as nri.IContainerUpdate[] }
          : await this.nri.updateContainer({ pod, container, linuxResources: resources });
      } catch (err) {
        if (err instanceof ConflictError) this.noteConflict(err, id);
        else this.noteError('UpdateContainer', err, { container: id });
        return { ok: false, error: err as Error };
      }
      // The requested update itself is applied even when no plugin touched it.
      const own = merged.updates.find((u) => u.containerId === id);
      const updates = own ? merged.updates : [...merged.updates, { containerId: id, linux: { resources } }];
      this.applyUpdates('runtime', updates, 'update');
      this.stateChanged('UpdateContainer', { pod: pod.id ?? '', container: id });
      const after = this.state.mustContainer(id);
      if (!this.fault('skip-post-update-container-event'))
        await this.relay(Event.POST_UPDATE_CONTAINER, { pod, container: after }, 'PostUpdateContainer', {
          container: id,
        });
      return { ok: true, updates };
    });
  }

  /**
   * UpdateContainer reaches the plugins and nothing comes of it: the runtime dies right
   * after (quirks.criUpdateCrashes), so nothing is applied and no PostUpdateContainer sent.
   */
  updateContainerAndDie(id: string, resources: nri.ILinuxResources): Promise<void> {
    return this.nri.locked(async () => {
      const { pod, container } = this.ctr(id);
      try {
        await this.nri.updateContainer({ pod, container, linuxResources: resources });
      } catch (err) {
        this.noteError('UpdateContainer', err, { container: id });
      }
    });
  }

  stopContainer(id: string): Promise<void> {
    return this.nri.locked(async () => this.stopped(this.ctr(id), 0, true));
  }

  /**
   * A container stops (StopContainer, or its command ended with `code`): its plugins are
   * told, where the runtime tells them (Docker does not) and `relay` allows, and what they
   * update is applied; then it is CONTAINER_STOPPED. Called under the lock.
   */
  private async stopped({ pod, container }: CtrRequest, code: number, relay: boolean): Promise<void> {
    const id = container.id ?? '';
    if (relay && !this.opts.quirks?.docker) {
      try {
        const merged = await this.nri.stopContainer({ pod, container });
        this.applyUpdates('runtime', merged.updates, 'stop');
      } catch (err) {
        this.noteError('StopContainer', err, { container: id });
      }
    }
    this.state.setContainerState(id, nri.ContainerState.CONTAINER_STOPPED, code);
    this.stateChanged('StopContainer', { pod: pod.id ?? '', container: id }, 'STOPPED');
  }

  removeContainer(id: string): Promise<void> {
    return this.nri.locked(async () => {
      const { pod, container } = this.ctr(id);
      await this.relay(Event.REMOVE_CONTAINER, { pod, container }, 'RemoveContainer', { container: id });
      this.state.removeContainer(id);
      this.stateChanged('RemoveContainer', { pod: pod.id ?? '', container: id });
    });
  }

  private ctr(id: string): CtrRequest {
    const container = this.state.mustContainer(id);
    return { pod: this.state.mustPod(container.podSandboxId ?? ''), container };
  }

  /** Carries out container updates, from the runtime's own merge or a plugin's request; returns the failed ones. */
  private applyUpdates(plugin: string, updates: nri.IContainerUpdate[], source: UpdateSource): nri.IContainerUpdate[] {
    if (updates.length === 0) return []; // most requests collect none
    const outcome = applyUpdates(this.state, updates);
    const failed = new Set(outcome.failed);
    for (const u of updates) {
      if (!u.containerId) continue; // not applied, not failed: the runtime skips it
      this.report({ type: 'updated', plugin, container: u.containerId, update: u, source, failed: failed.has(u) });
    }
    return outcome.failed;
  }
}

/** The faults drop-adjusted-*: what a plugin adjusted is not applied. */
function dropAdjusted(runtime: Runtime, adjust: nri.IContainerAdjustment): void {
  if (runtime.fault('drop-adjusted-env')) adjust.env = [];
  if (runtime.fault('drop-adjusted-annotations')) adjust.annotations = {};
  if (runtime.fault('drop-adjusted-mounts')) adjust.mounts = [];
  if (runtime.fault('drop-adjusted-resources') && adjust.linux) adjust.linux.resources = null;
}

/**
 * iSulad keys an external plugin by 64 random hex characters and calls plugins in the order
 * of those keys. The simulator draws them from a fixed seed: the order is as arbitrary as
 * iSulad's, and the same from one run to the next, so that a run (a conformance verdict, a
 * page of the README) can be made again.
 */
function randomExternalNames(): () => string {
  const next = seededRandom(0x15a1ad);
  return () =>
    Array.from({ length: 8 }, () =>
      Math.floor(next() * 2 ** 32)
        .toString(16)
        .padStart(8, '0'),
    ).join('');
}
