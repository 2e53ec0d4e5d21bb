// The plugin side of one NRI connection: register, configure, synchronize, then serve
// events until the runtime or stop() ends it.
import { EventEmitter } from 'node:events';
import type net from 'node:net';
import {
  identifyRuntime,
  PluginMethod,
  RUNTIME_SERVICE,
  RuntimeMethod,
  formatEventMask,
  nri,
  requestTimeoutSetting,
  runtimeVintage,
  synchronizeMore,
  type ConnectedRuntimeKind,
} from '../api/index.js';
import { Mux, MuxProtocolError, PLUGIN_SERVICE_CONN, RUNTIME_SERVICE_CONN } from '../mux/index.js';
import {
  Code,
  TtrpcClient,
  TtrpcClosedError,
  TtrpcError,
  TtrpcProtocolError,
  TtrpcServer,
  type ServerConnection,
} from '../ttrpc/index.js';
import { connectTo, endpointOf, resolveTarget } from './connect.js';
import { PluginError, pluginErrors, type Endpoint, type LateAnswer, type PluginStep } from './errors.js';
import { HandlerClock, type LateHandler } from './handler-clock.js';
import { handledEventsMask, subscriptionMask, type PluginHandlers } from './handlers.js';
import { pluginIdentity, SDK_NRI_VERSION } from './identity.js';
import { eventMethods, gatedEventMethods, registerPluginService } from './plugin-service.js';
import { nameSharedLog, routeConsoleToLog } from './log.js';

export interface StubOptions {
  /** Else NRI_PLUGIN_NAME, else from the executable's name. */
  name?: string;
  /** Two digits; else NRI_PLUGIN_IDX, else from the executable's name. */
  index?: string;
  /** Else the fd in NRI_PLUGIN_SOCKET if set, else /var/run/nri/nri.sock. */
  socketPath?: string;
  /** Explicit subscription mask; else derived from the handlers supplied. */
  events?: number;
  /**
   * Bound on the whole of start() (connect, register, configure, synchronize). Without it:
   * 5000 ms, or the runtime's own registration timeout once its Configure request tells it,
   * until the plugin is registered and configured; the wait for Synchronize is then the
   * runtime's to bound, as in Go's stub (a runtime that gives up closes the connection).
   */
  registrationTimeoutMs?: number;
}

export interface RuntimeInfo {
  /** As the runtime names itself in Configure. */
  name: string;
  version: string;
  /** runtimeVintage(...).label, e.g. "NRI v0.6 or older". */
  vintage: string;
  /** The NRI version the runtime said in Configure (v0.12 and later); undefined when it did not say. */
  nriVersion?: string | undefined;
  /** Which runtime that is, and how to name it to people ("iSulad (reports v2 2.0.0-beta.2+unknown)"). */
  kind: ConnectedRuntimeKind;
  label: string;
}

const DEFAULT_REGISTRATION_TIMEOUT_MS = 5000;
/** The longest wait setTimeout takes (src/units has it too; this layer imports no units). */
const TIMER_MAX_MS = 2 ** 31 - 1;
/** containerd's and CRI-O's default, and what runtimes of NRI v0.6 and older (which do not say) apply. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 2000;

export interface UpdateOptions {
  /** How long to wait for the runtime's answer; default the runtime's request timeout (requestTimeoutMs). */
  timeoutMs?: number;
}

/**
 * Events: 'configured' (req: nri.ConfigureRequest), 'synchronized' (live: see start()), and 'close'
 * (err?: PluginError) once a started plugin loses its connection. err is undefined when
 * stop() closed it or the runtime had sent Shutdown. A failed start() reports through
 * its rejection only.
 */
export class Stub extends EventEmitter {
  readonly name: string;
  readonly index: string;
  readonly #handlers: PluginHandlers;
  readonly #opts: StubOptions;
  readonly #baseMask: number;

  #endpoint: Endpoint = { label: 'the NRI socket' };
  #socket: net.Socket | undefined;
  #mux: Mux | undefined;
  #client: TtrpcClient | undefined;
  #served: ServerConnection | undefined;

  #started = false;
  #connected = false;
  #registered = false;
  #configured = false;
  #synchronized = false;
  /** Set once our Synchronize answer is on its way: what to run when the plugin goes live. */
  #syncAnswered: (() => void) | undefined;
  /** Launched by the runtime (connected through NRI_PLUGIN_SOCKET), not dialled. */
  #preStarted = false;
  #wentLive = false;
  #closed = false;
  #stopping = false;
  #shutdownRequested = false;

  #startedAt = 0;
  #timer: NodeJS.Timeout | undefined;
  #startWaiter: { resolve(): void; reject(err: Error): void } | undefined;
  #syncPods: nri.IPodSandbox[] = [];
  #syncContainers: nri.IContainer[] = [];
  #syncRaw: Buffer[] = [];
  #runtime: RuntimeInfo | undefined;
  #events = 0;
  #requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS;
  /** Whether the runtime said its request timeout in Configure (NRI v0.7 and later). */
  #timeoutFromRuntime = false;
  /** How long each handler keeps the runtime waiting: why it dropped us, when it did. */
  readonly #clock = new HandlerClock();

  constructor(handlers: PluginHandlers, opts: StubOptions = {}) {
    super();
    this.#handlers = handlers;
    this.#opts = opts;
    const id = pluginIdentity(opts);
    this.name = id.name;
    this.index = id.index;
    nameSharedLog(this.name, this.fullName);
    this.#baseMask = opts.events ?? handledEventsMask(handlers);
  }

  /** "10-logger", as the runtime names the plugin. */
  get fullName(): string {
    return `${this.index}-${this.name}`;
  }

  get runtime(): RuntimeInfo | undefined {
    return this.#runtime;
  }

  /**
   * The runtime's request timeout from its Configure request, as Go's stub RequestTimeout():
   * how long the runtime waits for this plugin's answers, and the default deadline of the
   * plugin's own calls. DEFAULT_REQUEST_TIMEOUT_MS before Configure, or when the runtime
   * does not say (NRI v0.6 and older).
   */
  get requestTimeoutMs(): number {
    return this.#requestTimeoutMs;
  }

  /** The mask answered to Configure; 0 before that. */
  get events(): number {
    return this.#events;
  }

  /**
   * Resolves once Synchronize was answered (the plugin is live); rejects with a PluginError.
   * A plugin the runtime launched is live once configured where that runtime never
   * synchronizes one (NRI v0.6 or older, iSulad: no timeouts in Configure).
   */
  start(): Promise<void> {
    if (this.#started) return Promise.reject(new Error(`plugin ${this.fullName}: start() was already called`));
    this.#started = true;
    const target = resolveTarget(this.#opts.socketPath);
    this.#endpoint = endpointOf(target);
    this.#preStarted = target.kind === 'fd';
    // Started by a runtime, which owns (and may discard) stdout and stderr.
    if (target.kind === 'fd') routeConsoleToLog();
    this.#startedAt = Date.now();
    const started = new Promise<void>((resolve, reject) => {
      this.#startWaiter = { resolve, reject };
    });
    this.#armTimer(this.#opts.registrationTimeoutMs ?? DEFAULT_REGISTRATION_TIMEOUT_MS);
    connectTo(target).then(
      (sock) => this.#attach(sock),
      (err: Error) => this.#failStart(err),
    );
    return started;
  }

  /**
   * Asks the runtime to update containers; resolves with the updates it failed to apply.
   * Rejects with PluginError reason 'timeout' when no answer comes within the deadline.
   */
  async updateContainers(
    update: nri.IContainerUpdate[],
    evict: nri.IContainerEviction[] = [],
    opts: UpdateOptions = {},
  ): Promise<nri.IContainerUpdate[]> {
    const client = this.#client;
    if (!client || !this.#registered || this.#closed) {
      throw new PluginError(
        'update',
        'closed',
        `plugin ${this.fullName} is not registered with the runtime at ${this.#endpoint.label}: start() it first`,
        this.#endpoint.socketPath,
      );
    }
    const req = nri.UpdateContainersRequest.encode({ update, evict }).finish();
    let payload: Buffer;
    try {
      payload = await client.call(RUNTIME_SERVICE, RuntimeMethod.UpdateContainers, req, {
        timeoutMs: opts.timeoutMs ?? this.#requestTimeoutMs,
      });
    } catch (err) {
      if (err instanceof TtrpcClosedError) throw pluginErrors.closed(this.#endpoint, 'update', err);
      if (err instanceof TtrpcError && err.code === Code.DeadlineExceeded) {
        throw pluginErrors.updateTimeout(this.#endpoint, this.fullName, opts.timeoutMs ?? this.#requestTimeoutMs, err);
      }
      const why = err instanceof TtrpcError ? err.statusMessage : (err as Error).message;
      throw new PluginError(
        'update',
        'rejected',
        `UpdateContainers of plugin ${this.fullName} failed at ${this.#endpoint.label}: ${why}`,
        this.#endpoint.socketPath,
        { cause: err },
      );
    }
    return nri.UpdateContainersResponse.decode(payload).failed;
  }

  /**
   * Closes the connection; a start() still pending rejects. By default cleanly: what is
   * queued for the runtime still goes out, for at most a few seconds should it not read.
   * With `immediate` the connection is dropped at once, queued answers with it: for a
   * call that timed out, or a user who stopped the program, whose deadline must hold
   * against a runtime that stopped reading.
   */
  async stop(opts: { immediate?: boolean } = {}): Promise<void> {
    this.#stopping = true;
    if (this.#closed) return;
    const sock = this.#socket;
    if (!this.#mux) {
      this.#teardown(undefined);
      return;
    }
    if (opts.immediate) this.#mux.destroy();
    else this.#mux.close();
    if (sock && !sock.destroyed) await new Promise<void>((resolve) => sock.once('close', () => resolve()));
  }

  #attach(sock: net.Socket): void {
    if (this.#closed) {
      sock.destroy(); // timed out or stopped while dialling
      return;
    }
    this.#socket = sock;
    this.#connected = true;
    const mux = new Mux(sock, { label: this.#endpoint.label });
    this.#mux = mux;
    mux.on('close', (err?: Error) => this.#teardown(err));

    const server = new TtrpcServer();
    registerPluginService(
      server,
      {
        // Nothing the runtime sends reaches the handlers before it registered and configured us.
        ...gatedEventMethods(eventMethods(this.#handlers), () => this.#takesEvents(), this.fullName),
        Configure: (req: nri.ConfigureRequest) => this.#configure(req),
        Synchronize: (req: nri.SynchronizeRequest) => this.#synchronize(req),
        Shutdown: async () => {
          this.#shutdownRequested = true;
          await this.#handlers.shutdown?.();
        },
      },
      this.fullName,
      this.#handlers.synchronizeRaw
        ? { [PluginMethod.Synchronize]: (payload: Buffer) => this.#synchronizeRaw(payload) }
        : {},
      this.#clock,
    );
    // Open the Plugin service side first: the runtime may send Configure before our
    // RegisterPlugin answer reaches us.
    this.#served = server.serve(mux.open(PLUGIN_SERVICE_CONN));
    this.#client = new TtrpcClient(mux.open(RUNTIME_SERVICE_CONN));
    // Garbage on one logical connection ends the whole plugin, saying that we refused it.
    const onProtocolError = (err?: Error) => {
      if (isProtocolError(err)) mux.close(err);
    };
    this.#served.on('close', onProtocolError);
    this.#client.on('close', onProtocolError);
    void this.#register(this.#client);
  }

  async #register(client: TtrpcClient): Promise<void> {
    const req = nri.RegisterPluginRequest.encode({
      pluginName: this.name,
      pluginIdx: this.index,
      NRIVersion: SDK_NRI_VERSION,
    }).finish();
    try {
      await client.call(RUNTIME_SERVICE, RuntimeMethod.RegisterPlugin, req);
      this.#registered = true;
      this.#awaitSynchronize();
      this.#goLive();
    } catch (err) {
      // A closed connection or our own timeout is reported by whoever closed it.
      if (err instanceof TtrpcClosedError || this.#closed) return;
      const why = err instanceof TtrpcError ? err.statusMessage : (err as Error).message;
      this.#failStart(pluginErrors.rejected(this.#endpoint, this.fullName, why, err));
    }
  }

  async #configure(req: nri.ConfigureRequest): Promise<nri.IConfigureResponse> {
    const vintage = runtimeVintage(req);
    const { kind, label } = identifyRuntime(req.runtimeName, req.runtimeVersion);
    this.#runtime = {
      name: req.runtimeName,
      version: req.runtimeVersion,
      vintage: vintage.label,
      kind,
      label,
      ...(req.NRIVersion ? { nriVersion: req.NRIVersion } : {}),
    };
    const requestBound = Number(req.requestTimeout);
    if (requestBound > 0) {
      this.#requestTimeoutMs = requestBound;
      this.#timeoutFromRuntime = true;
    }
    const runtimeBound = Number(req.registrationTimeout);
    if (this.#opts.registrationTimeoutMs === undefined && runtimeBound > 0 && !this.#synchronized) {
      this.#armTimer(runtimeBound);
    }
    let requested: number | undefined;
    if (this.#handlers.configure) {
      try {
        requested = (await this.#handlers.configure(req))?.events;
      } catch (err) {
        const e = new PluginError(
          'configure',
          'protocol',
          `configure handler of plugin ${this.fullName} failed: ${(err as Error).message ?? String(err)}`,
          this.#endpoint.socketPath,
          { cause: err },
        );
        this.#failStart(e, true);
        throw new TtrpcError(Code.Unknown, e.message);
      }
    }
    const events = subscriptionMask({ base: this.#baseMask, requested, knownEventsMask: vintage.knownEventsMask });
    if (events === 0) {
      const e = pluginErrors.noEvents(
        this.#endpoint,
        this.fullName,
        formatEventMask(this.#baseMask),
        `${req.runtimeName || 'the runtime'} (${vintage.label})`,
      );
      this.#failStart(e, true);
      throw new TtrpcError(Code.FailedPrecondition, e.message);
    }
    this.#events = events;
    this.#configured = true;
    this.#awaitSynchronize();
    this.emit('configured', req);
    // A runtime that never synchronizes a plugin it launched: live once configured, as Go's
    // stub.Start() returns after Configure; waiting would time out, and refusing the events
    // that come next would fail the runtime's requests.
    if (this.#preStarted && !vintage.synchronizesPreStarted) this.#settleSynchronized();
    return { events };
  }

  async #synchronize(req: nri.SynchronizeRequest): Promise<nri.ISynchronizeResponse> {
    // concat, not push(...): a large node's state would overflow the argument list.
    this.#syncPods = this.#syncPods.concat(req.pods);
    this.#syncContainers = this.#syncContainers.concat(req.containers);
    if (req.more) return { more: true };
    const pods = this.#syncPods;
    const containers = this.#syncContainers;
    this.#syncPods = [];
    this.#syncContainers = [];
    let update: nri.IContainerUpdate[];
    try {
      update = (await this.#handlers.synchronize?.(pods, containers)) ?? [];
    } catch (err) {
      const e = new PluginError(
        'synchronize',
        'protocol',
        `synchronize handler of plugin ${this.fullName} failed: ${(err as Error).message ?? String(err)}`,
        this.#endpoint.socketPath,
        { cause: err },
      );
      this.#failStart(e, true);
      throw new TtrpcError(Code.Unknown, e.message);
    }
    this.#settleSynchronized();
    return { update, more: false };
  }

  /** Synchronize for handlers.synchronizeRaw: answered unread, handed on after the answer. */
  #synchronizeRaw(payload: Buffer): Uint8Array {
    // Kept as it is, a view: the readers below (src/framing) hand out views of chunks they
    // never write again, or bytes of their own, so it stays valid (a copy cost a node's
    // state, 13 MB, some 7 ms).
    this.#syncRaw.push(payload);
    if (synchronizeMore(payload)) return nri.SynchronizeResponse.encode({ more: true }).finish();
    const parts = this.#syncRaw;
    this.#syncRaw = [];
    this.#settleSynchronized(() => this.#handlers.synchronizeRaw?.(parts));
    return nri.SynchronizeResponse.encode({ more: false }).finish();
  }

  #settleSynchronized(then?: () => void): void {
    this.#synchronized = true;
    // Settle after the answer is on its way, so "live" means the runtime has it.
    setImmediate(() => {
      if (this.#closed) return;
      this.#syncAnswered = then ?? (() => {});
      this.#goLive();
    });
  }

  /**
   * start() resolves once both have happened, in either order: the runtime answered
   * RegisterPlugin, and our Synchronize answer is on its way. As Go's stub.Start(), which
   * returns only after RegisterPlugin returned and Configure was served.
   */
  #goLive(): void {
    const then = this.#syncAnswered;
    if (!this.#registered || !then || this.#wentLive || this.#closed) return;
    this.#wentLive = true;
    this.#clearTimer();
    this.emit('synchronized');
    const w = this.#startWaiter;
    this.#startWaiter = undefined;
    w?.resolve();
    then();
  }

  /**
   * Registered and configured: from here the wait for Synchronize is the runtime's to bound,
   * as in Go's stub, which waits for it without a timer. A runtime that starts several
   * plugins synchronizes them once all have started, which on a busy node takes longer than
   * any bound counted from our start(); one that gives up on us closes the connection, and
   * start() rejects with that. Only a bound the caller gave (registrationTimeoutMs) still
   * covers the whole of start().
   */
  #awaitSynchronize(): void {
    if (this.#registered && this.#configured && this.#opts.registrationTimeoutMs === undefined) this.#clearTimer();
  }

  /**
   * Registered (RegisterPlugin answered) and configured: events may reach the handlers, our
   * Synchronize answer given or not. iSulad relays events to an external plugin from its
   * Configure on, while its Synchronize is in flight (NewExternalPlugin adds the plugin
   * before it synchronizes; no lock holds CRI calls back), and Go's stub takes them: one
   * refused would have iSulad shut the plugin down (it drops a plugin that answers an error).
   */
  #takesEvents(): boolean {
    return this.#registered && this.#configured && !this.#closed;
  }

  /** The first registration step not yet done. */
  #step(): PluginStep {
    if (!this.#connected) return 'connect';
    if (!this.#registered && !this.#configured) return 'register';
    if (!this.#configured) return 'configure';
    if (!this.#synchronized) return 'synchronize';
    if (!this.#registered) return 'register'; // configured and synchronized, RegisterPlugin still unanswered
    return 'closed';
  }

  /**
   * (Re)arms the bound on start(), counted from when start() was called. A bound past what
   * setTimeout can wait (2^31-1 ms; a runtime's Configure may say more) waits that long:
   * Node would fire a longer timer at once, failing the registration on the spot.
   */
  #armTimer(totalMs: number): void {
    this.#clearTimer();
    const left = Math.min(Math.max(totalMs - (Date.now() - this.#startedAt), 0), TIMER_MAX_MS);
    this.#timer = setTimeout(() => {
      this.#failStart(pluginErrors.timeout(this.#endpoint, this.fullName, this.#step(), totalMs));
    }, left);
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Rejects a pending start() and drops the connection. With afterAnswer the drop waits a
   * turn, so the error status we are about to send still reaches the runtime.
   */
  #failStart(err: Error, afterAnswer = false): void {
    const w = this.#startWaiter;
    if (!w) return;
    this.#startWaiter = undefined;
    this.#clearTimer();
    w.reject(err);
    const drop = () => (this.#mux ? this.#mux.close(err) : this.#teardown(err));
    if (afterAnswer) setImmediate(drop);
    else drop();
  }

  #teardown(cause: Error | undefined): void {
    if (this.#closed) return;
    const step = this.#step();
    this.#closed = true;
    this.#clearTimer();
    this.#client?.close(cause);
    this.#served?.close(cause);
    const w = this.#startWaiter;
    this.#startWaiter = undefined;
    if (w && this.#stopping) {
      w.reject(
        new PluginError(
          step,
          'closed',
          `plugin ${this.fullName} was stopped during ${step} (${this.#endpoint.label})`,
          this.#endpoint.socketPath,
        ),
      );
      return;
    }
    if (!w && !this.#wentLive) return; // start() already rejected and said why
    if (!w && (this.#stopping || this.#shutdownRequested)) {
      this.#announceClose(undefined);
      return;
    }
    const tell = (late: LateAnswer | undefined): void => {
      const err = closedError(this.#endpoint, w ? step : 'closed', cause, late);
      if (w) w.reject(err);
      else this.#announceClose(err);
    };
    // A handler still running, short of the timeout by our clock, may be why the runtime
    // closed: whether it was is known when it answers or reaches the timeout (settle()).
    const late = isProtocolError(cause) ? undefined : this.#clock.late(this.#requestTimeoutMs);
    if (late || isProtocolError(cause) || !this.#clock.busy) tell(this.#lateAnswer(late));
    else void this.#clock.settle(this.#requestTimeoutMs).then((l) => tell(this.#lateAnswer(l)));
  }

  #announceClose(err: PluginError | undefined): void {
    try {
      this.#handlers.onClose?.(err);
    } finally {
      this.emit('close', err);
    }
  }

  /** The handler that kept the runtime waiting past its request timeout as the connection closed, if one did, with the timeout and its setting. */
  #lateAnswer(late: LateHandler | undefined): LateAnswer | undefined {
    if (!late) return undefined;
    const runtime = this.#runtime;
    return {
      ...late,
      requestTimeoutMs: this.#requestTimeoutMs,
      timeoutFromRuntime: this.#timeoutFromRuntime,
      setting: requestTimeoutSetting(runtime?.name ?? '', runtime?.version ?? ''),
    };
  }
}

function isProtocolError(err: unknown): err is Error {
  return err instanceof MuxProtocolError || err instanceof TtrpcProtocolError;
}

/**
 * Why the connection ended: we refused what the runtime sent, or the runtime dropped us,
 * and why, when a handler tells (it ran past the request timeout).
 */
function closedError(at: Endpoint, step: PluginStep, cause: Error | undefined, late?: LateAnswer): PluginError {
  if (isProtocolError(cause)) return pluginErrors.malformed(at, step, cause);
  return late ? pluginErrors.closedLate(at, step, late, cause) : pluginErrors.closed(at, step, cause);
}
