// The runtime's side of NRI, as containerd/nri pkg/adaptation (adaptation.go) is for the
// runtimes that embed it: launch the pre-started plugins and listen for external ones,
// keep them in invocation order, relay each lifecycle event to the subscribed ones under
// one lock, merge their answers, call the validators, and drop a plugin that fails. The
// embedding runtime (src/runtime/sim) owns the containers: it hands the adaptation the
// state to synchronize new plugins with and applies the updates plugins ask for, as a
// Go runtime passes its SyncFn and UpdateFn.
import type { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Event, eventName, formatEventMask, nri } from '../../api/index.js';
import type { ErrorKind } from '../../errors/index.js';
import { stamp, type SimEvent, type SimEventInit, type UpdateSource } from '../events.js';
import { discoverPlugins } from './adaptation-discover.js';
import { closeListener, listenForPlugins, type Listening } from './adaptation-listen.js';
import { Lock } from './adaptation-lock.js';
import { TtrpcError, type LateAnswerRule } from '../../ttrpc/index.js';
import { goErrorText, goStatusText } from './go-text.js';
import { PluginConnection, PluginConnectionError, type EncodedRequest } from './plugin.js';
import { DEFAULT_KILL_GRACE_MS, launchPlugin, stopPlugin, type LaunchedProcess } from './plugin-launch.js';
import { ResultCollector, type CollectRequest, type PluginResponse } from './result.js';
import { DEFAULT_REGISTRATION_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './timeouts.js';
import { GO_LATE_ANSWERS } from './late-answers.js';
import { DEFAULT_VALIDATOR, defaultValidation, type DefaultValidatorConfig } from './default-validator.js';
import { validationRequest, ValidationRejectedError, ValidatorFailedError } from './validate.js';
import { NEWEST_NRI_VERSION, runtimeVintage, type RuntimeVintage } from './vintage.js';
import { PreStartFailedError } from './errors.js';
import { goLaunchFailure, goStartFailure } from './pre-start-failure.js';

export interface AdaptationOptions {
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
   * Report each call to a plugin as an `invoke` event (default true). The Go adaptation
   * reports nothing per call; a listener that does not print them (nrictl sim without
   * --calls) turns them off, so a relayed call builds and emits no event for it.
   */
  callEvents?: boolean;
  /**
   * What becomes of pre-started plugins' stdout and stderr: 'events' (default) relays each
   * line as a plugin-output event; 'none' hands the children /dev/null, so a chatty plugin
   * costs the simulator nothing per line.
   */
  pluginOutput?: 'events' | 'none';
  /**
   * The built-in default validator's settings (containerd 2.2+, CRI-O 1.34+): with
   * `enable`, and an NRI of v0.10 or later, it validates every creation as plugin
   * 00-default-validator.
   */
  defaultValidator?: DefaultValidatorConfig;
  /**
   * Whether a pre-started plugin that fails to start fails Start (the runtime does not
   * come up) instead of being skipped; default: as the Go adaptation of `nriVersion`
   * (RuntimeVintage.preStartFailureFatal). A runtime with an NRI of its own says.
   */
  preStartFailureFatal?: boolean;
  /**
   * Whether pre-started plugins get a Synchronize once they have started; default: as the
   * Go adaptation of `nriVersion` (RuntimeVintage.syncLaunched). A runtime with an NRI of
   * its own says.
   */
  syncLaunchedPlugins?: boolean;
  /**
   * The order plugins are invoked in: by index as a string (Go's sortPlugins, the
   * default); by name, as iSulad's own NRI keys its plugins (nri-facts.md); or in the
   * order they joined (no runtime: a fault for `nrictl conformance`'s tests).
   */
  pluginOrder?: 'index' | 'name' | 'joined';
  /**
   * Whether a plugin's answer that comes just after its request's deadline may still count:
   * by default as on the Go runtime (GO_LATE_ANSWERS, late-answers.ts).
   */
  lateAnswers?: LateAnswerRule;
  /**
   * An external plugin joins the invocation list in a critical section of its own after
   * its Synchronize, so that an event waiting on the lock during the Synchronize is
   * relayed before it joins: the Go adaptation of v0.6 embedded by containerd 1.7.14 to
   * 1.7.25, which holds no CRI call back while a plugin synchronizes (containerd#11384).
   */
  joinAfterSync?: boolean;
  /**
   * An external plugin joins the invocation list as soon as it is configured, named at
   * random, and is synchronized outside the lock, so that events reach it while its
   * Synchronize is in flight; with pluginOrder 'name', external plugins go by that random
   * name. iSulad's own NRI: NewExternalPlugin (nri_adaption.cc:163-243 at d2434895) keys
   * the plugin by a random string and adds it before Start and Synchronize.
   */
  joinAtConnect?: boolean;
  /** The random name of an external plugin that joins at connect; default 64 random hex digits, as iSulad's. */
  externalName?: () => string;
}

/** What the embedding runtime gives the adaptation (Go: the SyncFn and UpdateFn of New()). */
export interface AdaptationHost {
  /** Where the adaptation reports, as 'event' (SimEvent); per-call events are built only while it has listeners. */
  readonly events: EventEmitter;
  /** The pods and containers a plugin is synchronized with. Called under the lock. */
  snapshot(): { pods: nri.IPodSandbox[]; containers: nri.IContainer[] };
  /** Applies the container updates a plugin asked for; returns the failed ones. Called under the lock. */
  update(plugin: string, updates: nri.IContainerUpdate[], source: UpdateSource): nri.IContainerUpdate[];
  /**
   * Where the runtime imitated departs from the Go adaptation (a preset's quirks): an
   * Error for an answer to CreateContainer it could not take closes the plugin and fails
   * the request; one for an UpdateContainers request closes the plugin, nothing applied.
   */
  refuseCreateAnswer?(plugin: string, rsp: nri.ICreateContainerResponse | null): Error | undefined;
  refuseUpdateRequest?(plugin: string, req: nri.IUpdateContainersRequest): Error | undefined;
  /**
   * An UpdateContainers request the runtime answers with an error (Docker: "not
   * implemented"): the plugin gets the error, stays connected, nothing is applied.
   */
  failUpdateRequest?(plugin: string, req: nri.IUpdateContainersRequest): Error | undefined;
  /**
   * The runtime's own words for a plugin it did not start, where they are not the Go
   * adaptation's (iSulad); undefined: nrictl's wording around the Go error.
   */
  startFailureText?(plugin: { name: string; base: string; external: boolean }, err: Error): string | undefined;
  /**
   * A plugin answered a relayed call with an error. Go fails the request with it; a
   * runtime that instead drops the plugin and goes on (iSulad) returns the reason to
   * close it with.
   */
  dropOnErrorAnswer?(
    plugin: { base: string; external: boolean },
    method: string,
    ids: { pod?: string; container?: string },
  ): Error | undefined;
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

/** The merged answers to a CreateContainer, UpdateContainer or StopContainer. */
export type Merged = ReturnType<ResultCollector['result']> & { request: object; owners: ResultCollector['owners'] };

/** A relayed request failed: a plugin answered with an error, or the relay itself did. */
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
type CtrRequest = { pod: nri.IPodSandbox; container: nri.IContainer };
const NOTHING_RELAYED: Promise<void> = Promise.resolve();

export class Adaptation {
  private readonly lock = new Lock();
  private active: PluginConnection[] = [];
  private readonly pending = new Set<PluginConnection>();
  /** The random names external plugins are keyed by where they join at connect (opts.joinAtConnect). */
  private readonly randomNames = new WeakMap<PluginConnection, string>();
  private readonly processes = new Map<PluginConnection, LaunchedProcess>();
  private listening: Listening | undefined;
  private readonly sockets = new Set<Socket>();
  private stopping = false;
  // External plugins that dialled while the pre-started ones were still starting.
  private accepting = false;
  private readonly early: Socket[] = [];
  readonly registrationTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly vintage: RuntimeVintage;
  private readonly events: EventEmitter;

  constructor(
    private readonly host: AdaptationHost,
    private readonly opts: AdaptationOptions = {},
  ) {
    this.events = host.events;
    this.registrationTimeoutMs = opts.registrationTimeoutMs ?? DEFAULT_REGISTRATION_TIMEOUT_MS;
    this.requestTimeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.vintage = runtimeVintage(opts.nriVersion ?? NEWEST_NRI_VERSION);
  }

  get socketPath(): string | undefined {
    return this.listening?.socketPath;
  }

  /** Runs fn under the adaptation's one lock (Go: r.Lock()), as every relayed event does. */
  locked<T>(fn: () => Promise<T>): Promise<T> {
    return this.lock.run(fn);
  }

  private report(e: SimEventInit): void {
    if (this.observed) this.events.emit('event', stamp(e));
  }

  /** Whether anyone listens for events: the per-call ones are not even built for nobody. */
  private get observed(): boolean {
    return this.events.listenerCount('event') > 0;
  }

  /** Whether `invoke` events are wanted: asked for (the default) and listened to. */
  private get callsObserved(): boolean {
    return this.opts.callEvents !== false && this.observed;
  }

  /**
   * Listens, launches the pre-started plugins and waits for each one's registration, then
   * takes external plugins. Go launches first and listens after; the socket is made first
   * here so that its path is the first thing reported (a user points plugins at it), but
   * a plugin that dials it early is taken on only after the pre-started ones, as in Go.
   * A stop() while starting, or a failure, ends it: nothing is left listening or running.
   */
  async start(): Promise<{ socketPath: string | undefined }> {
    if (!this.opts.disableConnections) {
      const listening = await listenForPlugins(this.opts.socketPath, (socket) => this.accept(socket));
      if (this.stopping) {
        await closeListener(listening);
        return { socketPath: undefined };
      }
      this.listening = listening;
      this.report({ type: 'listening', socketPath: listening.socketPath });
    }
    if (this.opts.pluginPath) {
      try {
        await this.startLaunchedPlugins(this.opts.pluginPath);
      } catch (err) {
        // Discovery failed, or (NRI before v0.7) a pre-started plugin did: the Go runtime
        // fails its start-up, so the socket and the plugins started so far go too.
        await this.stop();
        throw err;
      }
    }
    this.accepting = true;
    for (const socket of this.early.splice(0)) this.accept(socket);
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

  /** Whether a live plugin is subscribed to the event. */
  subscribed(event: Event): boolean {
    return this.active.some((p) => !p.closed && p.subscribed(event));
  }

  private connection(socket: Duplex, launched?: LaunchedProcess): PluginConnection {
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
      lateAnswers: this.opts.lateAnswers ?? GO_LATE_ANSWERS,
      onUpdateContainers: (plugin, req) => this.updateContainers(plugin, req),
    });
    conn.on('close', (err?: Error) => this.closed(conn, err));
    return conn;
  }

  /**
   * A plugin's connection ended. While the runtime waited for one of its answers, or on a
   * failure, the plugin is dropped. A clean end between requests is a plugin that is done:
   * it stopped. A launched one says how it ended through its exit status, which it is given
   * the kill grace period to show (then it is stopped as any other).
   */
  private closed(conn: PluginConnection, err: Error | undefined): void {
    const wasActive = this.active.includes(conn);
    this.pending.delete(conn);
    const proc = this.processes.get(conn);
    if (this.stopping) return;
    if (proc) this.processes.delete(conn);
    if (!wasActive || err || conn.closedMidCall) {
      if (wasActive)
        this.report({
          type: 'dropped',
          plugin: conn.label,
          reason: err?.message ?? 'the plugin closed its connection while the runtime waited for its answer',
        });
      if (proc) void stopPlugin(proc, this.opts.killGraceMs);
      return;
    }
    if (!proc) {
      this.report({ type: 'stopped', plugin: conn.label, reason: 'the plugin closed its connection' });
      return;
    }
    void this.reportExit(conn.label, proc);
  }

  private async reportExit(plugin: string, proc: LaunchedProcess): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const status = await Promise.race([
      proc.exited,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), this.opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    if (this.stopping) return;
    if (status === undefined) {
      this.report({ type: 'stopped', plugin, reason: 'the plugin closed its connection' });
      await stopPlugin(proc, this.opts.killGraceMs);
    } else if (status.code === 0) {
      this.report({ type: 'stopped', plugin, reason: 'the plugin exited (status 0)' });
    } else {
      const how = status.signal ? `was killed by ${status.signal}` : `exited with status ${status.code}`;
      this.report({ type: 'dropped', plugin, reason: `the plugin closed its connection and ${how}` });
    }
  }

  private async startLaunchedPlugins(pluginPath: string): Promise<void> {
    const { plugins } = await discoverPlugins(pluginPath, this.opts.pluginConfigPath);
    const started: PluginConnection[] = [];
    // NRI before v0.7: the first plugin that fails ends Start; start() then stops the rest.
    const fatal = this.opts.preStartFailureFatal ?? this.vintage.preStartFailureFatal;
    for (const plugin of plugins) {
      if (this.stopping) return;
      const name = `${plugin.index}-${plugin.name}`;
      let proc: LaunchedProcess;
      try {
        proc = await launchPlugin(plugin, { output: this.opts.pluginOutput === 'none' ? 'discard' : 'capture' });
      } catch (err) {
        this.report({ type: 'error', plugin: name, message: (err as Error).message });
        if (fatal) throw new PreStartFailedError(goLaunchFailure(plugin.name, err as Error), name, { cause: err });
        continue;
      }
      if (this.stopping) {
        await stopPlugin(proc, this.opts.killGraceMs);
        return;
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
        if (this.stopping) return; // stop() closed it: not the plugin's failure
        this.report({
          type: 'error',
          plugin: name,
          message:
            this.host.startFailureText?.({ name, base: plugin.name, external: false }, err as Error) ??
            `failed to start pre-installed plugin ${name}: ${(err as Error).message}`,
        });
        conn.close(err as Error);
        await stopPlugin(proc, this.opts.killGraceMs);
        if (fatal) throw new PreStartFailedError(goStartFailure(err as Error), name, { cause: err });
      }
    }
    if (this.stopping) return;
    if (!(this.opts.syncLaunchedPlugins ?? this.vintage.syncLaunched)) {
      // NRI before v0.7 and iSulad: the started plugins just join, unsynchronized.
      for (const conn of started) this.add(conn);
      return;
    }
    // All launched plugins are synchronized with one snapshot, before anything else runs.
    await this.lock.run(async () => {
      const snap = this.host.snapshot();
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
    if (!this.accepting) {
      this.early.push(socket);
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
        if (this.stopping) return;
        this.report({
          type: 'error',
          plugin: conn.label,
          message:
            this.host.startFailureText?.({ name: conn.label, base: conn.base, external: true }, err as Error) ??
            `failed to start external plugin: ${(err as Error).message}`,
        });
        conn.close(err as Error);
        return;
      }
      this.reportRegistered(conn);
      if (this.opts.joinAtConnect) {
        // iSulad's shape: in the list from now on, synchronized while events flow.
        this.randomNames.set(conn, this.opts.externalName?.() ?? randomBytes(32).toString('hex'));
        await this.lock.run(async () => this.add(conn));
        if (!(await this.synchronize(conn, this.host.snapshot())) && !conn.closed)
          conn.close(new Error('failed to synchronize'));
        return;
      }
      // Synchronizing and joining the invocation list happen between events, never during one.
      if (this.opts.joinAfterSync) {
        // v0.6.1's shape: synchronized under one lock, joined under another, taken afresh.
        const synced = await this.lock.run(() => this.synchronize(conn, this.host.snapshot()));
        if (synced) await this.lock.run(async () => this.add(conn));
        return;
      }
      await this.lock.run(async () => {
        if (await this.synchronize(conn, this.host.snapshot())) this.add(conn);
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
      if (r.updates.length > 0) this.host.update(conn.label, r.updates, 'synchronize');
      return true;
    } catch (err) {
      if (this.stopping) return false;
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
    const order = this.opts.pluginOrder ?? 'index';
    if (order === 'joined') return;
    // Index as a string; the sort is stable so equal indices keep the order they joined in
    // (what Go's sort.Slice does for the few plugins a node has: insertion sort below 13).
    const key = (p: PluginConnection) => (order === 'name' ? (this.randomNames.get(p) ?? p.base) : p.index);
    this.active.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }

  /** Takes closed plugins off the invocation list (their processes are seen to when they close). */
  private removeClosed(): void {
    if (this.active.some((p) => p.closed)) this.active = this.active.filter((p) => !p.closed);
  }

  private async stopProcess(conn: PluginConnection): Promise<void> {
    const proc = this.processes.get(conn);
    if (!proc) return;
    this.processes.delete(conn);
    conn.close();
    await stopPlugin(proc, this.opts.killGraceMs);
  }

  // ---- relaying (the embedding runtime calls these under locked()) ----------------

  /**
   * Calls `method` on every subscribed plugin in order. A plugin that fails fatally is
   * dropped and the rest go on; one that answers with an error stops the relay and fails
   * the request (the Go runtime returns that error to the CRI call), unless the host
   * drops it instead (dropOnErrorAnswer).
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
          const drop = this.host.dropOnErrorAnswer?.(plugin, method, idsOf(request));
          if (drop) {
            plugin.close(drop); // reported by its close; the rest go on
            continue;
          }
          // A plugin that answered with an error: the Go library hands the runtime that
          // status as it is (its text names no plugin; the cause and the event do).
          const status =
            err instanceof PluginConnectionError && err.cause instanceof TtrpcError ? err.cause : undefined;
          const text = status ? goStatusText(status) : `${method}: ${(err as Error).message}`;
          throw new RuntimeError(text, method, { cause: err });
        }
        if (r === null) continue; // dropped; reported by its close
        if (this.callsObserved) {
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
          this.events.emit('event', e);
        }
        each?.(plugin, r.response);
      }
    } finally {
      this.removeClosed();
    }
  }

  /** The answers of every subscribed plugin to one request, merged as result.go merges them. */
  private async relayCollecting(
    event: Event,
    method: string,
    request: CollectRequest,
    /** The container's id where the request does not carry it (a sparse CreateContainer). */
    containerId?: string,
  ): Promise<Merged> {
    const collector = new ResultCollector(request);
    await this.relay<PluginResponse>(
      event,
      method,
      collector.request,
      (plugin, rsp) => {
        if (event === Event.CREATE_CONTAINER && this.host.refuseCreateAnswer) {
          const crash = this.host.refuseCreateAnswer(plugin.label, rsp);
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

  /** A pod event or a post-event: nothing to merge, an error fails the request. */
  notify(event: Event, request: PodRequest | CtrRequest): Promise<void> {
    // Most events have no subscriber at all (a plugin that only adjusts containers):
    // then there is nothing to relay, and no async round to pay for it.
    if (!this.subscribed(event)) {
      this.removeClosed();
      return NOTHING_RELAYED;
    }
    return this.relay(event, eventName(event), request);
  }

  /** UpdatePodSandbox (v0.10+): relayed; plugins may refuse it, they change nothing. */
  updatePodSandbox(req: nri.IUpdatePodSandboxRequest): Promise<void> {
    return this.relay(Event.UPDATE_POD_SANDBOX, 'UpdatePodSandbox', req);
  }

  /**
   * CreateContainer: every answer merged (a conflict throws ConflictError), then, v0.10+,
   * the validators (ValidationRejectedError, ValidatorFailedError). `sent` is what plugins
   * are shown; `original` the container as the runtime has it, which validators see.
   */
  async createContainer(pod: nri.IPodSandbox, sent: nri.IContainer, original: nri.IContainer): Promise<Merged> {
    const id = original.id ?? '';
    const merged = await this.relayCollecting(
      Event.CREATE_CONTAINER,
      'CreateContainer',
      { create: { pod, container: sent } },
      id,
    );
    // Validation is awaited only when there is a validator to wait for.
    const builtin =
      this.vintage.validation && this.opts.defaultValidator?.enable ? this.opts.defaultValidator : undefined;
    if (this.vintage.validation && (builtin || this.subscribed(Event.VALIDATE_CONTAINER_ADJUSTMENT))) {
      await this.validate(pod, original, merged, builtin);
    }
    this.evict(merged.evictions, 'CreateContainer');
    return merged;
  }

  /** UpdateContainer: plugins may amend the update or update other containers; merged. */
  async updateContainer(req: nri.IUpdateContainerRequest): Promise<Merged> {
    const merged = await this.relayCollecting(Event.UPDATE_CONTAINER, 'UpdateContainer', { update: req });
    this.evict(merged.evictions, 'UpdateContainer');
    return merged;
  }

  /** StopContainer: plugins may update other containers; merged. */
  stopContainer(req: nri.IStopContainerRequest): Promise<Merged> {
    return this.relayCollecting(Event.STOP_CONTAINER, 'StopContainer', { stop: req });
  }

  // ---- what plugins ask for ------------------------------------------------------

  /** A plugin's own UpdateContainers request (Go: plugin.UpdateContainers, then the runtime's UpdateFn). */
  private updateContainers(
    plugin: PluginConnection,
    req: nri.IUpdateContainersRequest,
  ): Promise<nri.IContainerUpdate[]> {
    const crash = this.host.refuseUpdateRequest?.(plugin.label, req);
    if (crash) {
      // The real runtime goes down with the request: nothing is applied, the plugin's connection ends.
      this.report({ type: 'error', plugin: plugin.label, event: 'UpdateContainers', message: crash.message });
      plugin.close(crash);
      return Promise.resolve([]);
    }
    const failure = this.host.failUpdateRequest?.(plugin.label, req);
    if (failure) {
      this.report({ type: 'error', plugin: plugin.label, event: 'UpdateContainers', message: failure.message });
      return Promise.reject(failure);
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
      const updates = req.update ?? [];
      return updates.length === 0 ? [] : this.host.update(plugin.label, updates, 'unsolicited');
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
    merged: Merged,
    builtin?: DefaultValidatorConfig,
  ): Promise<void> {
    const validators = this.active.filter((p) => !p.closed && p.subscribed(Event.VALIDATE_CONTAINER_ADJUSTMENT));
    if (validators.length === 0 && !builtin) return;
    const id = original.id ?? '';
    // The builtin is a plugin of the invocation list too, at index 00, so it is "present".
    const listed: Array<{ base: string; index: string }> = this.active.filter((p) => !p.closed);
    const req = validationRequest(
      pod,
      original,
      merged,
      merged.owners,
      builtin ? [DEFAULT_VALIDATOR, ...listed] : listed,
    );
    const reason = builtin ? defaultValidation(builtin, req) : undefined;
    if (reason !== undefined) throw new ValidationRejectedError(DEFAULT_VALIDATOR.name, id, reason);
    const encoded: EncodedRequest = {};
    const outcomes = await Promise.all(
      validators.map(async (v): Promise<Error | undefined> => {
        let r;
        try {
          r = await v.call<nri.IValidateContainerAdjustmentResponse>('ValidateContainerAdjustment', req, encoded);
        } catch (err) {
          return new ValidatorFailedError(v.label, id, goErrorText(err), { cause: err });
        }
        // A fatal failure closed the plugin; unlike other events, validation still fails.
        if (r === null) return new ValidatorFailedError(v.label, id, v.whyClosed?.message ?? 'connection closed');
        if (this.callsObserved)
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

  // ---- shutdown ------------------------------------------------------------------

  /** Stops listening, disconnects external plugins and stops launched ones. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const all = [...this.active, ...this.pending];
    for (const p of all) p.close();
    for (const s of [...this.sockets, ...this.early.splice(0)]) s.destroy();
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
  // Most plugins answer CreateContainer with an empty adjustment: a decoded message with
  // no field of its own, which the conversion below would also find empty.
  if (Object.keys(a).length === 0) return false;
  return JSON.stringify(nri.ContainerAdjustment.toObject(nri.ContainerAdjustment.fromObject(a))) !== '{}';
}
