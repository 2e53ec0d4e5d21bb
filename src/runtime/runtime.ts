// The simulated runtime: listens for external plugins, launches pre-started ones, keeps
// them in invocation order and relays lifecycle events to the subscribed ones under one
// lock, merging their answers and applying them to the simulated state the way
// containerd/nri pkg/adaptation (adaptation.go) does.
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { Event, eventName, formatEventMask, nri, plainCopy } from '../api/index.js';
import { applyAdjustment, applyUpdates } from './apply.js';
import { discoverPlugins } from './discovery.js';
import { ConflictError, MergeError } from './errors.js';
import { stamp, type SimEvent, type SimEventInit, type UpdateSource } from './events.js';
import { launchPlugin, stopPlugin, type LaunchedProcess } from './launcher.js';
import { closeListener, listenForPlugins, type Listening } from './listener.js';
import { Lock } from './lock.js';
import { ResultCollector, type CollectRequest, type PluginResponse } from './merge.js';
import { PluginConnection, PluginConnectionError, type EncodedRequest } from './plugin-connection.js';
import type { SimState } from './state.js';
import { validationRequest, ValidationRejectedError, ValidatorFailedError } from './validation.js';
import { NEWEST_NRI_VERSION, runtimeVintage, type RuntimeVintage } from './vintage.js';
import type { ErrorKind } from '../errors/index.js';
import type { RuntimeQuirks } from './presets.js';
import { dropNewEnv, sparseCreateRequest, wouldAbortOnCreate, wouldCrashOnUpdate } from './quirks.js';

export const DEFAULT_REGISTRATION_TIMEOUT_MS = 5000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 2000;
/** The NRI version this simulator claims in Configure by default: the newest generation whose rules it follows. */
export const SIMULATED_NRI_VERSION = NEWEST_NRI_VERSION;

export interface RuntimeOptions {
  socketPath?: string;
  /** Do not accept external plugins at all (the runtimes' disable_connections). */
  disableConnections?: boolean;
  pluginPath?: string;
  pluginConfigPath?: string;
  registrationTimeoutMs?: number;
  requestTimeoutMs?: number;
  runtimeName?: string;
  runtimeVersion?: string;
  /** Behave like the Go adaptation of this NRI version (v0.3.0 .. v0.12.x); default the newest. */
  nriVersion?: string;
  /** Pods+containers per Synchronize message before `more`; by default only oversize splits. */
  syncChunkSize?: number;
  /** How long a launched plugin gets between SIGTERM and SIGKILL on stop. */
  killGraceMs?: number;
  /**
   * What becomes of pre-started plugins' stdout and stderr: 'events' (default) relays each
   * line as a plugin-output event; 'none' hands the children /dev/null, so a chatty plugin
   * costs the simulator nothing per line.
   */
  pluginOutput?: 'events' | 'none';
  /** Where the runtime imitated departs from the Go adaptation (a preset's quirks). */
  quirks?: RuntimeQuirks;
}

export interface PluginInfo {
  name: string;
  index: string;
  base: string;
  external: boolean;
  pid?: number;
  events: string;
  eventsMask: number;
  nriVersion: string;
}

export type CreateResult =
  | { ok: true; container: nri.IContainer; adjust?: nri.IContainerAdjustment; updates: nri.IContainerUpdate[] }
  | { ok: false; error: Error };

export class RuntimeError extends Error {
  override readonly name = 'RuntimeError';
  readonly kind: ErrorKind = 'failed';
  constructor(
    message: string,
    readonly event: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

type PodRequest = { pod: nri.IPodSandbox };
const NOTHING_RELAYED: Promise<void> = Promise.resolve();
type CtrRequest = { pod: nri.IPodSandbox; container: nri.IContainer };

/** Emits 'event' (SimEvent) for everything that happens. */
export class Runtime extends EventEmitter {
  private readonly lock = new Lock();
  private active: PluginConnection[] = [];
  private readonly pending = new Set<PluginConnection>();
  private readonly processes = new Map<PluginConnection, LaunchedProcess>();
  private listening: Listening | undefined;
  private readonly sockets = new Set<Socket>();
  private stopping = false;
  readonly registrationTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly vintage: RuntimeVintage;

  constructor(
    readonly state: SimState,
    private readonly opts: RuntimeOptions = {},
  ) {
    super();
    this.registrationTimeoutMs = opts.registrationTimeoutMs ?? DEFAULT_REGISTRATION_TIMEOUT_MS;
    this.requestTimeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.vintage = runtimeVintage(opts.nriVersion ?? SIMULATED_NRI_VERSION);
  }

  get socketPath(): string | undefined {
    return this.listening?.socketPath;
  }

  private report(e: SimEventInit): void {
    if (this.observed) this.emit('event', stamp(e));
  }

  /** Whether anyone listens for events: the per-call ones are not even built for nobody. */
  private get observed(): boolean {
    return this.listenerCount('event') > 0;
  }

  /** Launches pre-started plugins, then listens, in the runtime's order. */
  async start(): Promise<{ socketPath: string | undefined }> {
    if (this.opts.pluginPath) await this.startLaunchedPlugins(this.opts.pluginPath);
    if (!this.opts.disableConnections) {
      this.listening = await listenForPlugins(this.opts.socketPath, (socket) => this.accept(socket));
      this.report({ type: 'listening', socketPath: this.listening.socketPath });
    }
    return { socketPath: this.listening?.socketPath };
  }

  plugins(): PluginInfo[] {
    return this.active
      .filter((p) => !p.closed)
      .map((p) => ({
        name: p.label,
        index: p.index,
        base: p.base,
        external: p.external,
        ...(p.pid !== undefined ? { pid: p.pid } : {}),
        events: formatEventMask(p.events),
        eventsMask: p.events,
        nriVersion: p.nriVersion,
      }));
  }

  private connection(socket: import('node:stream').Duplex, launched?: LaunchedProcess): PluginConnection {
    const conn = new PluginConnection(socket, {
      ...(launched
        ? {
            launched: {
              index: launched.plugin.index,
              name: launched.plugin.name,
              ...(launched.plugin.config !== undefined ? { config: launched.plugin.config } : {}),
              ...(launched.child.pid !== undefined ? { pid: launched.child.pid } : {}),
            },
          }
        : {}),
      registrationTimeoutMs: this.registrationTimeoutMs,
      requestTimeoutMs: this.requestTimeoutMs,
      runtimeName: this.opts.runtimeName ?? 'nrictl-sim',
      runtimeVersion: this.opts.runtimeVersion ?? '0.1.0',
      vintage: this.vintage,
      onUpdateContainers: (plugin, req) => this.unsolicitedUpdate(plugin, req),
    });
    conn.on('close', (err?: Error) => {
      const wasActive = this.active.includes(conn);
      this.pending.delete(conn);
      if (wasActive && !this.stopping)
        this.report({
          type: 'dropped',
          plugin: conn.label,
          reason: err?.message ?? 'the plugin closed its connection',
        });
      const proc = this.processes.get(conn);
      if (proc && !this.stopping) void stopPlugin(proc, this.opts.killGraceMs);
    });
    return conn;
  }

  private async startLaunchedPlugins(pluginPath: string): Promise<void> {
    const { plugins } = await discoverPlugins(pluginPath, this.opts.pluginConfigPath);
    const started: PluginConnection[] = [];
    for (const plugin of plugins) {
      const name = `${plugin.index}-${plugin.name}`;
      let proc: LaunchedProcess;
      try {
        proc = await launchPlugin(plugin, { output: this.opts.pluginOutput === 'none' ? 'discard' : 'capture' });
      } catch (err) {
        this.report({ type: 'error', plugin: name, message: (err as Error).message });
        continue;
      }
      this.report({ type: 'launched', plugin: name, path: plugin.path, pid: proc.child.pid });
      proc.onOutput((stream, line) => this.report({ type: 'plugin-output', plugin: name, stream, line }));
      const conn = this.connection(proc.socket, proc);
      this.processes.set(conn, proc);
      this.pending.add(conn);
      try {
        await conn.start();
        this.reportRegistered(conn);
        started.push(conn);
      } catch (err) {
        this.report({
          type: 'error',
          plugin: name,
          message: `failed to start pre-installed plugin ${name}: ${(err as Error).message}`,
        });
        conn.close(err as Error);
        await stopPlugin(proc, this.opts.killGraceMs);
      }
    }
    // All launched plugins are synchronized with one snapshot, before anything else runs.
    await this.lock.run(async () => {
      const snap = this.state.snapshot();
      for (const conn of started) {
        if (await this.synchronize(conn, snap)) this.add(conn);
        else await this.stopProcess(conn);
      }
    });
  }

  private accept(socket: Socket): void {
    if (this.stopping) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    const conn = this.connection(socket);
    this.pending.add(conn);
    void (async () => {
      try {
        await conn.start();
      } catch (err) {
        this.report({
          type: 'error',
          plugin: conn.label,
          message: `failed to start external plugin: ${(err as Error).message}`,
        });
        conn.close(err as Error);
        return;
      }
      this.reportRegistered(conn);
      // Synchronizing and joining the invocation list happen between events, never during one.
      await this.lock.run(async () => {
        if (await this.synchronize(conn, this.state.snapshot())) this.add(conn);
      });
    })();
  }

  private reportRegistered(conn: PluginConnection): void {
    this.report({
      type: 'registered',
      plugin: conn.label,
      external: conn.external,
      events: formatEventMask(conn.events),
      ...(conn.nriVersion ? { nriVersion: conn.nriVersion } : {}),
    });
  }

  private async synchronize(
    conn: PluginConnection,
    snap: { pods: nri.IPodSandbox[]; containers: nri.IContainer[] },
  ): Promise<boolean> {
    if (conn.closed) return false;
    try {
      const r = await conn.synchronize(snap.pods, snap.containers, this.opts.syncChunkSize);
      this.report({
        type: 'synchronized',
        plugin: conn.label,
        pods: snap.pods.length,
        containers: snap.containers.length,
        messages: r.messages,
        rttMs: r.rttMs,
      });
      this.applyUpdates(conn.label, r.updates, 'synchronize');
      return true;
    } catch (err) {
      this.report({
        type: 'error',
        plugin: conn.label,
        event: 'Synchronize',
        message: `failed to synchronize plugin ${conn.label}: ${(err as Error).message}`,
      });
      return false;
    }
  }

  private add(conn: PluginConnection): void {
    this.pending.delete(conn);
    if (conn.closed) return;
    this.active.push(conn);
    // Index as a string; the sort is stable so equal indices keep the order they joined in
    // (what Go's sort.Slice does for the few plugins a node has: insertion sort below 13).
    this.active.sort((a, b) => (a.index < b.index ? -1 : a.index > b.index ? 1 : 0));
  }

  private removeClosed(): void {
    const closed = this.active.filter((p) => p.closed);
    if (closed.length === 0) return;
    this.active = this.active.filter((p) => !p.closed);
    for (const p of closed) void this.stopProcess(p);
  }

  private async stopProcess(conn: PluginConnection): Promise<void> {
    const proc = this.processes.get(conn);
    if (!proc) return;
    this.processes.delete(conn);
    conn.close();
    await stopPlugin(proc, this.opts.killGraceMs);
  }

  // ---- relaying ------------------------------------------------------------------

  /**
   * Calls `method` on every subscribed plugin in order. A plugin that fails fatally is
   * dropped and the rest go on; one that answers with an error stops the relay and fails
   * the request (the Go runtime returns that error to the CRI call).
   */
  private async relay<T>(
    event: Event,
    method: string,
    request: object,
    each?: (plugin: PluginConnection, rsp: T) => void,
    revision?: () => number,
  ): Promise<void> {
    // Every plugin is sent the same request object. Unless an answer changed it (a new
    // revision), the bytes encoded for one plugin are sent to the next as they are.
    let encoded: EncodedRequest = {};
    let seen = revision?.();
    let ids: { pod?: string; container?: string } | undefined;
    try {
      for (const plugin of [...this.active]) {
        if (plugin.closed || !plugin.subscribed(event)) continue;
        const now = revision?.();
        if (now !== seen) {
          encoded = {};
          seen = now;
        }
        let r;
        try {
          r = await plugin.call<T>(method, request, encoded);
        } catch (err) {
          throw new RuntimeError(`${method}: ${(err as Error).message}`, method, { cause: err });
        }
        if (r === null) continue; // dropped; reported by its close
        if (this.observed) {
          // Built as stamp() would build it, field for field, without the two spreads.
          const e: SimEvent & { type: 'invoke' } = {
            time: Date.now(),
            type: 'invoke',
            event: method,
            plugin: plugin.label,
            rttMs: r.rttMs,
          };
          ids ??= idsOf(request);
          if (ids.pod !== undefined) e.pod = ids.pod;
          if (ids.container !== undefined) e.container = ids.container;
          if (r.via) e.via = r.via;
          this.emit('event', e);
        }
        each?.(plugin, r.response);
      }
    } finally {
      this.removeClosed();
    }
  }

  private async relayCollecting(
    event: Event,
    method: string,
    request: CollectRequest,
    /** The container's id where the request does not carry it (a sparse CreateContainer). */
    containerId?: string,
  ): Promise<ReturnType<ResultCollector['result']> & { request: object; owners: ResultCollector['owners'] }> {
    const collector = new ResultCollector(request);
    await this.relay<PluginResponse>(
      event,
      method,
      collector.request,
      (plugin, rsp) => {
        if (event === Event.CREATE_CONTAINER && this.opts.quirks?.createNeedsAdjust) {
          const crash = wouldAbortOnCreate(this.opts.quirks, plugin.label, rsp);
          if (crash) {
            plugin.close(crash);
            throw new RuntimeError(crash.message, method, { cause: crash });
          }
        }
        collector.apply(plugin.label, rsp);
        const adjust = (rsp as nri.ICreateContainerResponse | null)?.adjust;
        const ctr = containerId ?? collector.request.container?.id;
        // Only built for someone listening: telling an empty adjustment costs a protobuf round trip.
        if (this.observed && adjust && ctr && hasAdjustment(adjust))
          this.report({ type: 'adjusted', plugin: plugin.label, container: ctr, adjust });
      },
      () => collector.revision,
    );
    return Object.assign(collector.result(), { request: collector.request, owners: collector.owners });
  }

  private relayNotice(event: Event, request: PodRequest | CtrRequest): Promise<void> {
    // Most events have no subscriber at all (a plugin that only adjusts containers):
    // then there is nothing to relay, and no async round to pay for it.
    if (!this.active.some((p) => !p.closed && p.subscribed(event))) {
      this.removeClosed();
      return NOTHING_RELAYED;
    }
    return this.relay(event, eventName(event), request);
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

  // ---- pod lifecycle -------------------------------------------------------------

  runPodSandbox(pod: nri.IPodSandbox): Promise<void> {
    return this.lock.run(async () => {
      const p = this.state.addPod(pod);
      this.stateChanged('RunPodSandbox', { pod: p.id ?? '' }, 'READY');
      await this.relayNotice(Event.RUN_POD_SANDBOX, { pod: p }).catch((err) =>
        this.noteError('RunPodSandbox', err, { pod: p.id ?? '' }),
      );
    });
  }

  updatePodSandbox(id: string, resources: nri.ILinuxResources, overhead?: nri.ILinuxResources): Promise<void> {
    return this.lock.run(async () => {
      const pod = this.state.mustPod(id);
      if (!this.vintage.podSandboxUpdates) {
        // Runtimes before v0.10 have no pod sandbox update events: the change just happens.
        this.state.applyPodResources(id, resources, overhead);
        this.stateChanged('UpdatePodSandbox', { pod: id });
        return;
      }
      const req: nri.IUpdatePodSandboxRequest = {
        pod,
        linuxResources: resources,
        ...(overhead ? { overheadLinuxResources: overhead } : {}),
      };
      try {
        await this.relay(Event.UPDATE_POD_SANDBOX, 'UpdatePodSandbox', req);
      } catch (err) {
        this.noteError('UpdatePodSandbox', err, { pod: id });
        return;
      }
      const updated = this.state.applyPodResources(id, resources, overhead);
      this.stateChanged('UpdatePodSandbox', { pod: id });
      await this.relayNotice(Event.POST_UPDATE_POD_SANDBOX, { pod: updated }).catch((err) =>
        this.noteError('PostUpdatePodSandbox', err, { pod: id }),
      );
    });
  }

  stopPodSandbox(id: string): Promise<void> {
    return this.lock.run(async () => {
      const pod = this.state.mustPod(id);
      await this.relayNotice(Event.STOP_POD_SANDBOX, { pod }).catch((err) =>
        this.noteError('StopPodSandbox', err, { pod: id }),
      );
      this.stateChanged('StopPodSandbox', { pod: id }, 'NOTREADY');
    });
  }

  removePodSandbox(id: string): Promise<void> {
    return this.lock.run(async () => {
      const pod = this.state.mustPod(id);
      await this.relayNotice(Event.REMOVE_POD_SANDBOX, { pod }).catch((err) =>
        this.noteError('RemovePodSandbox', err, { pod: id }),
      );
      this.state.removePod(id, { withContainers: true });
      this.stateChanged('RemovePodSandbox', { pod: id });
    });
  }

  // ---- container lifecycle -------------------------------------------------------

  /** CreateContainer (merged adjustments; a conflict fails the creation), then PostCreateContainer. */
  createContainer(podId: string, ctr: nri.IContainer): Promise<CreateResult> {
    return this.lock.run(async () => {
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
      let merged;
      try {
        const sent = this.opts.quirks?.sparseCreateRequest ? sparseCreateRequest(proposed) : proposed;
        merged = await this.relayCollecting(
          Event.CREATE_CONTAINER,
          'CreateContainer',
          { create: { pod, container: sent } },
          id,
        );
        // Validation is awaited only when there is a validator to wait for.
        if (
          this.vintage.validation &&
          this.active.some((p) => !p.closed && p.subscribed(Event.VALIDATE_CONTAINER_ADJUSTMENT))
        ) {
          await this.validate(pod, proposed, merged);
        }
      } catch (err) {
        if (err instanceof ConflictError) {
          this.report({
            type: 'conflict',
            container: err.containerId || id,
            field: err.field,
            ...(err.key !== undefined ? { key: err.key } : {}),
            plugins: err.plugins,
            message: err.message,
          });
        } else if (err instanceof ValidationRejectedError) {
          this.report({
            type: 'rejected',
            plugin: err.plugin,
            container: id,
            reason: err.reason,
            message: err.message,
          });
        } else if (err instanceof ValidatorFailedError) {
          this.report({
            type: 'error',
            plugin: err.plugin,
            event: 'ValidateContainerAdjustment',
            container: id,
            message: err.message,
          });
        } else if (!(err instanceof MergeError)) {
          this.noteError('CreateContainer', err, { container: id });
        } else {
          this.report({
            type: 'error',
            plugin: err.plugin,
            event: 'CreateContainer',
            container: id,
            message: err.message,
          });
        }
        return { ok: false, error: err as Error };
      }
      if (merged.adjust && this.opts.quirks?.ignoresNewEnv) {
        const sentId = (merged.request as nri.ICreateContainerRequest).container?.id ?? '';
        for (const dropped of dropNewEnv(this.opts.quirks, merged.adjust, proposed, (key) =>
          merged.owners.owner(sentId, nri.Field.Env, key),
        )) {
          this.report({ type: 'ignored', container: id, ...dropped });
        }
      }
      this.state.adoptContainer(proposed);
      if (merged.adjust) applyAdjustment(this.state, id, merged.adjust);
      const created = this.state.setContainerState(id, nri.ContainerState.CONTAINER_CREATED);
      this.evict(merged.evictions, 'CreateContainer');
      this.applyUpdates('runtime', merged.updates, 'create');
      this.stateChanged('CreateContainer', { pod: podId, container: id }, 'CREATED');
      await this.relayNotice(Event.POST_CREATE_CONTAINER, { pod, container: created }).catch((err) =>
        this.noteError('PostCreateContainer', err, { container: id }),
      );
      return {
        ok: true,
        container: plainCopy(created),
        ...(merged.adjust ? { adjust: merged.adjust } : {}),
        updates: merged.updates,
      };
    });
  }

  startContainer(id: string): Promise<void> {
    return this.lock.run(async () => {
      const { pod, container } = this.ctr(id);
      await this.relayNotice(Event.START_CONTAINER, { pod, container }).catch((err) =>
        this.noteError('StartContainer', err, { container: id }),
      );
      const running = this.state.setContainerState(id, nri.ContainerState.CONTAINER_RUNNING);
      this.stateChanged('StartContainer', { pod: pod.id ?? '', container: id }, 'RUNNING');
      await this.relayNotice(Event.POST_START_CONTAINER, { pod, container: running }).catch((err) =>
        this.noteError('PostStartContainer', err, { container: id }),
      );
    });
  }

  /** UpdateContainer (plugins may amend the update or update others), then PostUpdateContainer. */
  updateContainer(id: string, resources: nri.ILinuxResources): Promise<nri.IContainerUpdate[]> {
    return this.lock.run(async () => {
      const { pod, container } = this.ctr(id);
      let merged;
      try {
        merged = await this.relayCollecting(Event.UPDATE_CONTAINER, 'UpdateContainer', {
          update: { pod, container, linuxResources: resources },
        });
      } catch (err) {
        if (err instanceof ConflictError) {
          this.report({
            type: 'conflict',
            container: err.containerId || id,
            field: err.field,
            ...(err.key !== undefined ? { key: err.key } : {}),
            plugins: err.plugins,
            message: err.message,
          });
        } else this.noteError('UpdateContainer', err, { container: id });
        return [];
      }
      // The requested update itself is applied even when no plugin touched it.
      const own = merged.updates.find((u) => u.containerId === id);
      const updates = own ? merged.updates : [...merged.updates, { containerId: id, linux: { resources } }];
      this.evict(merged.evictions, 'UpdateContainer');
      this.applyUpdates('runtime', updates, 'update');
      this.stateChanged('UpdateContainer', { pod: pod.id ?? '', container: id });
      const after = this.state.mustContainer(id);
      await this.relayNotice(Event.POST_UPDATE_CONTAINER, { pod, container: after }).catch((err) =>
        this.noteError('PostUpdateContainer', err, { container: id }),
      );
      return updates;
    });
  }

  stopContainer(id: string): Promise<void> {
    return this.lock.run(async () => {
      const { pod, container } = this.ctr(id);
      try {
        const merged = await this.relayCollecting(Event.STOP_CONTAINER, 'StopContainer', { stop: { pod, container } });
        this.applyUpdates('runtime', merged.updates, 'stop');
      } catch (err) {
        this.noteError('StopContainer', err, { container: id });
      }
      this.state.setContainerState(id, nri.ContainerState.CONTAINER_STOPPED, 0);
      this.stateChanged('StopContainer', { pod: pod.id ?? '', container: id }, 'STOPPED');
    });
  }

  removeContainer(id: string): Promise<void> {
    return this.lock.run(async () => {
      const { pod, container } = this.ctr(id);
      await this.relayNotice(Event.REMOVE_CONTAINER, { pod, container }).catch((err) =>
        this.noteError('RemoveContainer', err, { container: id }),
      );
      this.state.removeContainer(id);
      this.stateChanged('RemoveContainer', { pod: pod.id ?? '', container: id });
    });
  }

  private ctr(id: string): CtrRequest {
    const container = this.state.mustContainer(id);
    return { pod: this.state.mustPod(container.podSandboxId ?? ''), container };
  }

  // ---- updates -------------------------------------------------------------------

  private unsolicitedUpdate(
    plugin: PluginConnection,
    req: nri.IUpdateContainersRequest,
  ): Promise<nri.IContainerUpdate[]> {
    if (this.opts.quirks?.pluginUpdatesCrash) {
      // The real runtime goes down with the request: nothing is applied, the plugin's connection ends.
      const crash = wouldCrashOnUpdate(this.opts.quirks, plugin.label, req);
      this.report({ type: 'error', plugin: plugin.label, event: 'UpdateContainers', message: crash.message });
      plugin.close(crash);
      return Promise.resolve([]);
    }
    return this.lock.run(async () => {
      this.evict(
        (req.evict ?? []).map((e) => ({
          containerId: e.containerId ?? '',
          reason: e.reason ?? '',
          plugin: plugin.label,
        })),
        'UpdateContainers',
      );
      return this.applyUpdates(plugin.label, req.update ?? [], 'unsolicited');
    });
  }

  /**
   * Evictions plugins asked for. The Go adaptation drops them all, in every version we
   * read: UpdateContainers passes only the updates on, and the merged CreateContainer and
   * UpdateContainer answers carry no evictions (see src/runtime/README.md), so the
   * runtime never learns of them. We say so, and leave the container alone.
   */
  private evict(
    evictions: Array<{ containerId: string; reason: string; plugin: string }>,
    via: 'UpdateContainers' | 'CreateContainer' | 'UpdateContainer',
  ): void {
    for (const e of evictions)
      this.report({
        type: 'evicted',
        plugin: e.plugin,
        container: e.containerId,
        reason: e.reason,
        via,
        applied: false,
      });
  }

  /** Calls every validator plugin in parallel; throws on the first rejection or failure. */
  private async validate(
    pod: nri.IPodSandbox,
    original: nri.IContainer,
    merged: { adjust?: nri.IContainerAdjustment; updates: nri.IContainerUpdate[]; owners: ResultCollector['owners'] },
  ): Promise<void> {
    if (!this.vintage.validation) return;
    const validators = this.active.filter((p) => !p.closed && p.subscribed(Event.VALIDATE_CONTAINER_ADJUSTMENT));
    if (validators.length === 0) return;
    const id = original.id ?? '';
    const req = validationRequest(
      pod,
      original,
      merged,
      merged.owners,
      this.active.filter((p) => !p.closed),
    );
    const encoded: EncodedRequest = {};
    const outcomes = await Promise.all(
      validators.map(async (v): Promise<Error | undefined> => {
        let r;
        try {
          r = await v.call<nri.IValidateContainerAdjustmentResponse>('ValidateContainerAdjustment', req, encoded);
        } catch (err) {
          return new ValidatorFailedError(v.label, id, (err as Error).message, { cause: err });
        }
        // A fatal failure closed the plugin; unlike other events, validation still fails.
        if (r === null) return new ValidatorFailedError(v.label, id, v.whyClosed?.message ?? 'connection closed');
        this.report({
          type: 'invoke',
          event: 'ValidateContainerAdjustment',
          plugin: v.label,
          rttMs: r.rttMs,
          pod: pod.id ?? '',
          container: id,
        });
        return r.response.reject ? new ValidationRejectedError(v.label, id, r.response.reason ?? '') : undefined;
      }),
    );
    this.removeClosed();
    const failure = outcomes.find((e) => e !== undefined);
    if (failure) throw failure;
  }

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

  // ---- shutdown ------------------------------------------------------------------

  /** Stops listening, disconnects external plugins and stops launched ones. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const all = [...this.active, ...this.pending];
    for (const p of all) p.close();
    for (const s of this.sockets) s.destroy();
    await Promise.all([...this.processes.values()].map((p) => stopPlugin(p, this.opts.killGraceMs)));
    this.processes.clear();
    this.active = [];
    this.pending.clear();
    if (this.listening) await closeListener(this.listening);
    this.listening = undefined;
  }
}

function idsOf(req: object): { pod?: string; container?: string } {
  const r = req as { pod?: nri.IPodSandbox | null; container?: nri.IContainer | null };
  const ids: { pod?: string; container?: string } = {};
  if (r.pod?.id) ids.pod = r.pod.id;
  if (r.container?.id) ids.container = r.container.id;
  return ids;
}

function hasAdjustment(a: nri.IContainerAdjustment): boolean {
  return JSON.stringify(nri.ContainerAdjustment.toObject(nri.ContainerAdjustment.fromObject(a))) !== '{}';
}
