// One connected plugin, seen from the runtime: the trunk multiplexer over its socket,
// the Runtime service it calls (RegisterPlugin, UpdateContainers) on connection 2, and
// a ttrpc client for its Plugin service on connection 1. Follows containerd/nri
// pkg/adaptation plugin.go: registration deadline, Configure and the event-mask check,
// split Synchronize, per-request deadlines, and which failures close the plugin.
import type { ErrorKind } from '../../errors/index.js';
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import {
  Event,
  PLUGIN_SERVICE,
  RUNTIME_SERVICE,
  checkExternalName,
  checkPluginIndex,
  methodTypes,
  nri,
  type MessageClass,
} from '../../api/index.js';
import { Mux, PLUGIN_SERVICE_CONN, RUNTIME_SERVICE_CONN } from '../../mux/index.js';
import {
  Code,
  MESSAGE_LENGTH_MAX,
  TtrpcClient,
  TtrpcClosedError,
  TtrpcError,
  TtrpcProtocolError,
  TtrpcServer,
  type LateAnswerRule,
  type ServerConnection,
} from '../../ttrpc/index.js';
import { initialSyncChunk, shrinkSyncChunk, type SyncChunk } from './plugin-sync.js';
import type { RuntimeVintage } from './vintage.js';

export type PluginFailure =
  | 'registration-timeout'
  | 'registration-rejected'
  | 'configure-failed'
  | 'invalid-events'
  | 'split-sync'
  | 'timeout'
  | 'closed'
  | 'protocol'
  | 'failed'
  /** The runtime imitated would have crashed on what the plugin sent (a preset's quirk). */
  | 'runtime-crash';

/** A plugin call or handshake step failed; names the plugin and the method. */
export class PluginConnectionError extends Error {
  override readonly name = 'PluginConnectionError';
  readonly kind: ErrorKind = 'failed';
  constructor(
    message: string,
    readonly plugin: string,
    readonly reason: PluginFailure,
    readonly method?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface PluginConnectionOptions {
  /** Launched plugins are named by their file; external ones by what they register. */
  launched?: { index: string; name: string; config?: string; pid?: number };
  registrationTimeoutMs: number;
  requestTimeoutMs: number;
  runtimeName: string;
  runtimeVersion: string;
  /** The generation of the Go runtime to behave like. */
  vintage: RuntimeVintage;
  /** Whether an answer just after its deadline may still count (late-answers.ts). */
  lateAnswers: LateAnswerRule;
  /** Applies an UpdateContainers request under the runtime's lock; resolves with the failed updates. */
  onUpdateContainers(plugin: PluginConnection, req: nri.IUpdateContainersRequest): Promise<nri.IContainerUpdate[]>;
}

/** Events that newer runtimes send on their own RPC and older ones (and the fallback) as StateChange. */
const STATE_CHANGE_FALLBACK: Readonly<Record<string, Event>> = {
  RunPodSandbox: Event.RUN_POD_SANDBOX,
  PostUpdatePodSandbox: Event.POST_UPDATE_POD_SANDBOX,
  StopPodSandbox: Event.STOP_POD_SANDBOX,
  RemovePodSandbox: Event.REMOVE_POD_SANDBOX,
  PostCreateContainer: Event.POST_CREATE_CONTAINER,
  StartContainer: Event.START_CONTAINER,
  PostStartContainer: Event.POST_START_CONTAINER,
  PostUpdateContainer: Event.POST_UPDATE_CONTAINER,
  RemoveContainer: Event.REMOVE_CONTAINER,
};

// Looked up once per method: the relay asks for the same few on every call.
const CLASSES = new Map<string, { request: MessageClass; response: MessageClass }>();

function classes(method: string): { request: MessageClass; response: MessageClass } {
  let t = CLASSES.get(method);
  if (t) return t;
  t = methodTypes(PLUGIN_SERVICE, method);
  if (!t) throw new Error(`no such Plugin service method: ${method}`);
  CLASSES.set(method, t);
  return t;
}

/**
 * The bytes of one request for one method, filled by the first call that encodes it:
 * a runtime relaying an unchanged request to several plugins encodes it once.
 */
export interface EncodedRequest {
  payload?: Uint8Array;
}

export interface CallResult<T> {
  response: T;
  rttMs: number;
  /** Set when the call went out as StateChange after the plugin refused the dedicated RPC. */
  via?: 'StateChange';
}

/**
 * Emits 'close' (err?: Error) once. Callers learn of drops through that event and
 * through `null` answers from call(): a fatal failure closes the plugin and the
 * runtime goes on without it, exactly where the Go runtime does.
 */
export class PluginConnection extends EventEmitter {
  index = '';
  base = '';
  /** Subscribed events after Configure. */
  events = 0;
  nriVersion = '';
  readonly external: boolean;
  readonly pid: number | undefined;
  private readonly config: string;
  private readonly mux: Mux;
  private readonly client: TtrpcClient;
  private readonly serverConn: ServerConnection;
  private registered?: { resolve(): void; reject(err: Error): void };
  private readonly registration: Promise<void>;
  private registrationTimer: NodeJS.Timeout | undefined;
  private useStateChange: boolean;
  private closeReason: Error | undefined;
  private isClosed = false;
  private closedInCall = false;
  private labelOf = { index: '', base: '', label: '??-plugin' };
  // Every relayed call has the same options: made once, not per call.
  private readonly relayCallOptions: { timeoutMs: number };

  constructor(
    socket: Duplex,
    private readonly opts: PluginConnectionOptions,
  ) {
    super();
    this.external = opts.launched === undefined;
    if (opts.launched) {
      this.index = opts.launched.index;
      this.base = opts.launched.name;
    }
    this.pid = opts.launched?.pid;
    this.config = opts.launched?.config ?? '';
    this.relayCallOptions = { timeoutMs: Math.max(opts.requestTimeoutMs, 1) };
    // Older runtimes have no per-event RPC for pod events and post-events at all.
    this.useStateChange = !opts.vintage.perEventRpc;
    this.registration = new Promise<void>((resolve, reject) => (this.registered = { resolve, reject }));
    this.registration.catch(() => undefined); // observed by start(); never unhandled
    this.mux = new Mux(socket);
    // As strict as the Go runtime: a plugin that frames a message so that Go cannot read
    // it is dropped here too, with the reason, instead of passing only on the simulator.
    this.client = new TtrpcClient(this.mux.open(PLUGIN_SERVICE_CONN), {
      strictGoFraming: true,
      lateAnswers: opts.lateAnswers,
    });
    const server = new TtrpcServer({ strictGoFraming: true });
    server.register(RUNTIME_SERVICE, 'RegisterPlugin', (payload) => this.onRegister(payload));
    server.register(RUNTIME_SERVICE, 'UpdateContainers', (payload) => this.onUpdateContainers(payload));
    this.serverConn = server.serve(this.mux.open(RUNTIME_SERVICE_CONN));
    this.mux.on('close', (err?: Error) => this.close(err));
    this.client.on('close', (err?: Error) => this.close(err));
    this.serverConn.on('close', (err?: Error) => this.close(err));
    // The deadline runs from the accept (or launch), as in the runtime.
    this.registrationTimer = setTimeout(() => {
      const err = new PluginConnectionError(
        `plugin ${this.label} did not register within ${opts.registrationTimeoutMs} ms (registration timeout)`,
        this.label,
        'registration-timeout',
        'RegisterPlugin',
      );
      this.registered?.reject(err);
      this.close(err);
    }, opts.registrationTimeoutMs);
    this.registrationTimer.unref();
  }

  /** "NN-name", or a placeholder before an external plugin registers. */
  get label(): string {
    // Every relayed call names its plugin; the string is made again only when a part changed.
    if (this.labelOf.index !== this.index || this.labelOf.base !== this.base) {
      this.labelOf = { index: this.index, base: this.base, label: `${this.index || '??'}-${this.base || 'plugin'}` };
    }
    return this.labelOf.label;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get whyClosed(): Error | undefined {
    return this.closeReason;
  }

  /** It closed while the runtime waited for one of its answers: a drop, however cleanly the socket ended. */
  get closedMidCall(): boolean {
    return this.closedInCall;
  }

  subscribed(event: Event): boolean {
    return (this.events & (1 << (event - 1))) !== 0;
  }

  /** Waits for RegisterPlugin, then configures the plugin. Rejects (and closes) on failure. */
  async start(): Promise<void> {
    const closed = new Promise<never>((_, reject) =>
      this.once('close', (err?: Error) =>
        reject(
          new PluginConnectionError(
            `plugin ${this.label} failed to register: connection closed${err ? ` (${err.message})` : ''}`,
            this.label,
            'closed',
            'RegisterPlugin',
            { cause: err },
          ),
        ),
      ),
    );
    closed.catch(() => undefined);
    if (this.isClosed)
      throw new PluginConnectionError(
        `plugin ${this.label} failed to register: connection closed`,
        this.label,
        'closed',
      );
    await Promise.race([this.registration, closed]);
    await this.configure();
  }

  private onRegister(payload: Buffer): Uint8Array {
    const req = nri.RegisterPluginRequest.decode(payload);
    if (this.external) {
      try {
        // Before v0.12 the runtime only refused an empty name.
        if (this.opts.vintage.externalNameRule) checkExternalName(req.pluginName);
        else if (req.pluginName === '') throw new Error('invalid (empty) plugin name');
      } catch (err) {
        const msg = `invalid plugin name: ${(err as Error).message}`;
        this.registered?.reject(
          new PluginConnectionError(
            `plugin registered with an invalid name: ${(err as Error).message}`,
            this.label,
            'registration-rejected',
            'RegisterPlugin',
          ),
        );
        throw new TtrpcError(Code.Unknown, msg);
      }
      try {
        checkPluginIndex(req.pluginIdx);
      } catch (err) {
        const msg = `invalid plugin index: ${(err as Error).message}`;
        this.registered?.reject(
          new PluginConnectionError(
            `plugin "${req.pluginName}" registered with an invalid index: ${(err as Error).message}`,
            this.label,
            'registration-rejected',
            'RegisterPlugin',
          ),
        );
        throw new TtrpcError(Code.Unknown, msg);
      }
      this.base = req.pluginName;
      this.index = req.pluginIdx;
    }
    this.nriVersion = req.NRIVersion ?? '';
    if (this.registrationTimer) clearTimeout(this.registrationTimer);
    this.registrationTimer = undefined;
    this.registered?.resolve();
    return nri.Empty.encode({}).finish();
  }

  private async onUpdateContainers(payload: Buffer): Promise<Uint8Array> {
    const req = nri.UpdateContainersRequest.decode(payload);
    const failed = await this.opts.onUpdateContainers(this, req);
    return nri.UpdateContainersResponse.encode({ failed }).finish();
  }

  private async configure(): Promise<void> {
    const v = this.opts.vintage;
    const req: nri.IConfigureRequest = {
      config: this.config,
      runtimeName: this.opts.runtimeName,
      runtimeVersion: this.opts.runtimeVersion,
      ...(v.configureTimeouts
        ? { registrationTimeout: this.opts.registrationTimeoutMs, requestTimeout: this.opts.requestTimeoutMs }
        : {}),
      ...(v.configureNriVersion ? { NRIVersion: v.nriVersion } : {}),
    };
    let rsp: nri.IConfigureResponse;
    try {
      rsp = (await this.rawCall('Configure', req, this.opts.requestTimeoutMs)) as nri.IConfigureResponse;
    } catch (err) {
      const e = new PluginConnectionError(
        `failed to configure plugin ${this.label}: ${(err as Error).message}`,
        this.label,
        'configure-failed',
        'Configure',
        { cause: err },
      );
      this.close(e);
      throw e;
    }
    const mask = rsp.events ?? 0;
    if (mask !== 0) {
      const extra = (mask & ~v.knownEventsMask) >>> 0;
      if (extra !== 0) {
        // The Go adaptation's own words (plugin.go configure), so the line reads as the runtime's log does.
        const e = new PluginConnectionError(
          `invalid plugin events: 0x${extra.toString(16)}`,
          this.label,
          'invalid-events',
          'Configure',
        );
        this.close(e);
        throw e;
      }
      this.events = mask;
    } else {
      this.events = v.knownEventsMask;
    }
  }

  /**
   * Sends the state, split over several messages when one would be too large (or larger
   * than `chunkSize` objects). One deadline covers all parts, as in the runtime. Resolves
   * with the updates of the final answer; rejects (and closes) on any failure.
   */
  async synchronize(
    pods: nri.IPodSandbox[],
    containers: nri.IContainer[],
    chunkSize?: number,
  ): Promise<{ updates: nri.IContainerUpdate[]; messages: number; rttMs: number }> {
    const started = performance.now();
    const deadline = started + this.opts.requestTimeoutMs;
    let podsLeft = pods;
    let ctrsLeft = containers;
    // Runtimes before v0.7 send everything in one message and know nothing of `more`.
    const split = this.opts.vintage.splitSync;
    let chunk: SyncChunk = split
      ? initialSyncChunk(pods.length, containers.length, chunkSize)
      : { pods: pods.length, containers: containers.length };
    let messages = 0;
    for (;;) {
      const more = podsLeft.length > chunk.pods || ctrsLeft.length > chunk.containers;
      const req: nri.ISynchronizeRequest = {
        pods: podsLeft.slice(0, chunk.pods),
        containers: ctrsLeft.slice(0, chunk.containers),
        ...(split ? { more } : {}),
      };
      let rsp: nri.ISynchronizeResponse;
      try {
        rsp = (await this.rawCall('Synchronize', req, deadline - performance.now())) as nri.ISynchronizeResponse;
      } catch (err) {
        const oversize =
          err instanceof TtrpcError && err.code === Code.ResourceExhausted ? oversizeOf(err, req) : undefined;
        const next = oversize && split ? shrinkSyncChunk(chunk, oversize.rejected, oversize.max) : undefined;
        if (next) {
          chunk = next;
          continue;
        }
        const e = this.failure(
          'Synchronize',
          err,
          oversize && split ? 'failed to synchronize plugin with split messages' : undefined,
        );
        this.close(e);
        throw e;
      }
      messages++;
      if (!more) return { updates: rsp.update ?? [], messages, rttMs: performance.now() - started };
      if ((rsp.update?.length ?? 0) > 0 || rsp.more !== true) {
        const e = new PluginConnectionError(
          `plugin ${this.label} does not handle split sync requests (answered part ${messages} with ${rsp.more ? '' : 'more=false'}${(rsp.update?.length ?? 0) > 0 ? ' and updates' : ''})`,
          this.label,
          'split-sync',
          'Synchronize',
        );
        this.close(e);
        throw e;
      }
      podsLeft = podsLeft.slice(chunk.pods);
      ctrsLeft = ctrsLeft.slice(chunk.containers);
      chunk = { pods: Math.min(chunk.pods, podsLeft.length), containers: Math.min(chunk.containers, ctrsLeft.length) };
    }
  }

  /**
   * Relays one event. Resolves with the answer, or with `null` when the plugin failed
   * fatally (timeout, closed, garbage on the wire): it is then closed and the runtime
   * carries on. Other failures (the plugin answered with an error) reject with
   * PluginConnectionError: the runtime fails the request, as the Go runtime does.
   */
  async call<T = unknown>(method: string, request: object, encoded?: EncodedRequest): Promise<CallResult<T> | null> {
    const started = performance.now();
    const deadline = started + this.opts.requestTimeoutMs;
    const fallback = STATE_CHANGE_FALLBACK[method];
    try {
      if (fallback !== undefined && this.useStateChange) {
        await this.rawCall('StateChange', toStateChange(fallback, request), deadline - started);
        return { response: {} as T, rttMs: performance.now() - started, via: 'StateChange' };
      }
      try {
        // rawCall's steps written out: one async layer less on the path every relayed call takes.
        const types = classes(method);
        const payload = encoded?.payload ?? types.request.encode(request).finish();
        if (encoded) encoded.payload = payload;
        const answer = await this.client.call(PLUGIN_SERVICE, method, payload, this.relayCallOptions);
        const response = types.response.decode(answer) as T;
        return { response, rttMs: performance.now() - started };
      } catch (err) {
        if (fallback === undefined || !(err instanceof TtrpcError) || err.code !== Code.Unimplemented) throw err;
        // An older plugin: from now on every such event goes out as StateChange.
        this.useStateChange = true;
        await this.rawCall('StateChange', toStateChange(fallback, request), deadline - performance.now());
        return { response: {} as T, rttMs: performance.now() - started, via: 'StateChange' };
      }
    } catch (err) {
      const e = this.failure(method, err);
      if (isFatal(err)) {
        this.close(e);
        return null;
      }
      throw e;
    }
  }

  private async rawCall(
    method: string,
    request: object,
    timeoutMs: number,
    encoded?: EncodedRequest,
  ): Promise<unknown> {
    const types = classes(method);
    const payload = encoded?.payload ?? types.request.encode(request).finish();
    if (encoded) encoded.payload = payload;
    const answer = await this.client.call(PLUGIN_SERVICE, method, payload, { timeoutMs: Math.max(timeoutMs, 1) });
    return types.response.decode(answer);
  }

  private failure(method: string, err: unknown, message?: string): PluginConnectionError {
    const reason: PluginFailure =
      err instanceof TtrpcClosedError
        ? 'closed'
        : err instanceof TtrpcProtocolError
          ? 'protocol'
          : err instanceof TtrpcError && err.code === Code.DeadlineExceeded
            ? 'timeout'
            : 'failed';
    const what =
      message ??
      (reason === 'timeout'
        ? `no answer within the request timeout (${this.opts.requestTimeoutMs} ms)`
        : err instanceof TtrpcError
          ? err.statusMessage
          : (err as Error).message);
    return new PluginConnectionError(
      `plugin ${this.label} failed to handle ${method}: ${what}`,
      this.label,
      reason,
      method,
      { cause: err },
    );
  }

  /** Closes the trunk; safe to call more than once. The first reason wins. */
  close(err?: Error): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.closeReason = err;
    this.closedInCall = this.client.inFlight > 0;
    if (this.registrationTimer) clearTimeout(this.registrationTimer);
    this.client.close(err);
    this.serverConn.close();
    this.mux.close();
    this.registered?.reject(
      err ??
        new PluginConnectionError(
          `plugin ${this.label} closed the connection before registering`,
          this.label,
          'closed',
          'RegisterPlugin',
        ),
    );
    this.emit('close', err);
  }
}

/** Go's isFatalError: closed connections, protocol errors and passed deadlines close the plugin. */
function isFatal(err: unknown): boolean {
  return (
    err instanceof TtrpcClosedError ||
    err instanceof TtrpcProtocolError ||
    (err instanceof TtrpcError && (err.code === Code.DeadlineExceeded || err.code === Code.Unavailable))
  );
}

function toStateChange(event: Event, request: object): nri.IStateChangeEvent {
  const r = request as { pod?: nri.IPodSandbox | null; container?: nri.IContainer | null };
  const evt: nri.IStateChangeEvent = { event };
  if (r.pod) evt.pod = r.pod;
  if (r.container) evt.container = r.container;
  return evt;
}

/** The sizes an oversize refusal was about: the message we tried, and the ttrpc limit. */
function oversizeOf(err: TtrpcError, req: nri.ISynchronizeRequest): { rejected: number; max: number } {
  const m = /of (\d+) bytes exceeds the maximum message size of (\d+)/.exec(err.statusMessage);
  if (m) return { rejected: Number(m[1]), max: Number(m[2]) };
  return { rejected: nri.SynchronizeRequest.encode(req).finish().length, max: MESSAGE_LENGTH_MAX };
}
