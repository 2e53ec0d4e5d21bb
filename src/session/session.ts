// One transient-plugin session: check the identity, reach the runtime (or start the
// embedded simulator), register, take the Synchronize state, send UpdateContainers,
// close. Every wait has a deadline; every failure is a SessionError.
import { decodeSyncEntry, synchronizeEntries, type nri } from '../api/index.js';
import { Stub, type PluginHandlers, type RuntimeInfo } from '../plugin/index.js';
import { Aborted, untilAborted } from './deadline.js';
import { openEndpoint, type Endpoint, type EmbeddedRuntime, type SessionTarget } from './endpoint.js';
import { SessionError } from './errors.js';
import { checkIdentity } from './identity.js';
import { fromPluginError, type ErrorContext } from './plugin-errors.js';

export type SessionPhase = 'connecting' | 'receiving';

/**
 * A pod or container coming or going, as the runtime told the session after its
 * Synchronize: what appeared or went while the caller looked elsewhere (doctor compares
 * the Synchronize state with the runtime's CRI lists, taken before and after it).
 */
export interface LifecycleSighting {
  event: 'RunPodSandbox' | 'PostCreateContainer' | 'RemoveContainer' | 'RemovePodSandbox';
  podId: string;
  containerId?: string;
}

export interface SessionOptions {
  target: SessionTarget;
  name: string;
  index: string;
  /**
   * --timeout: bounds the registration as a whole and each call. Unset: registration
   * has the SDK's bound (the runtime's registration timeout once Configure says it),
   * calls the runtime's request timeout from Configure, else the SDK's 2 s.
   */
  timeoutMs?: number | undefined;
  /** Progress for a spinner: connecting, then receiving the state once configured. */
  onProgress?: ((phase: SessionPhase) => void) | undefined;
  /** A socket anyone but its owner could use, and similar: one line each. */
  onWarning?: ((text: string) => void) | undefined;
  /** Aborting stops the session; a pending wait rejects with SessionError 'cancelled'. */
  signal?: AbortSignal | undefined;
  /**
   * Also subscribe to the events by which pods and containers come and go (each answered
   * at once) and report them here, once the state is taken.
   */
  onLifecycle?: ((s: LifecycleSighting) => void) | undefined;
}

export interface SessionState {
  runtime: RuntimeInfo | undefined;
  pods: nri.IPodSandbox[];
  containers: nri.IContainer[];
}

export class Session implements SessionState {
  private closed = false;
  private decoded: { pods: nri.IPodSandbox[]; containers: nri.IContainer[] } | undefined;

  private constructor(
    private readonly stub: Stub,
    private readonly endpoint: Endpoint,
    private readonly opts: SessionOptions,
    /** The Synchronize messages as they came, undecoded (sync dump reads them entry by entry). */
    readonly payloads: readonly Buffer[],
  ) {}

  /** The pods of the state, decoded on first use. */
  get pods(): nri.IPodSandbox[] {
    return (this.decoded ??= decodeState(this.payloads)).pods;
  }

  /** The containers of the state, decoded on first use. */
  get containers(): nri.IContainer[] {
    return (this.decoded ??= decodeState(this.payloads)).containers;
  }

  /** Registers and takes the state; rejects with a SessionError. */
  static async open(opts: SessionOptions): Promise<Session> {
    checkIdentity(opts.name, opts.index);
    if (opts.signal?.aborted) throw cancelled('before connecting');
    opts.onProgress?.('connecting');
    const endpoint = await openEndpoint(opts.target, opts.onWarning);
    let payloads: Buffer[] = [];
    const stub = new Stub(
      {
        // Answered unread: the runtime waits for us only as long as the bytes take to
        // arrive, not while we decode a node's state (some 100 ms for 6,000 objects,
        // longer than Go's own sample plugins keep it waiting). Decoded after the answer.
        synchronizeRaw: (p) => {
          payloads = p;
        },
        // A registration must subscribe to something (0 would mean "everything"); this
        // event is answered at once should the runtime send it while we are connected.
        runPodSandbox: () => {},
        ...(opts.onLifecycle ? lifecycleHandlers(opts.onLifecycle) : {}),
      },
      {
        name: opts.name,
        index: opts.index,
        socketPath: endpoint.socketPath,
        ...(opts.timeoutMs !== undefined ? { registrationTimeoutMs: opts.timeoutMs } : {}),
      },
    );
    stub.once('configured', () => opts.onProgress?.('receiving'));
    // Stopped by the user: at once, whatever the runtime still has to read from us.
    const onAbort = (): void => void stub.stop({ immediate: true });
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await stub.start();
    } catch (err) {
      await endpoint.close();
      if (opts.signal?.aborted) throw cancelled('while registering');
      throw fromPluginError(err, context(endpoint, stub, opts, false));
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
    }
    return new Session(stub, endpoint, opts, payloads);
  }

  get runtime(): RuntimeInfo | undefined {
    return this.stub.runtime;
  }

  /** "99-nrictl-update". */
  get pluginName(): string {
    return this.stub.fullName;
  }

  /** The socket used: the simulator's under --sim. */
  get socketPath(): string {
    return this.endpoint.socketPath;
  }

  /** "/var/run/nri/nri.sock" or "the embedded simulator (demo.yaml)". */
  get label(): string {
    return this.endpoint.label;
  }

  /** The embedded simulator under --sim. */
  get sim(): EmbeddedRuntime | undefined {
    return this.endpoint.sim;
  }

  /** What one call may wait: --timeout, else the runtime's request timeout (the SDK's 2 s when it did not say). */
  get callTimeoutMs(): number {
    return this.opts.timeoutMs ?? this.stub.requestTimeoutMs;
  }

  /**
   * Sends one UpdateContainers request; resolves with the updates the runtime failed to
   * apply. A runtime that does not answer within callTimeoutMs ends the session.
   */
  async send(req: nri.IUpdateContainersRequest): Promise<nri.IContainerUpdate[]> {
    const ms = this.callTimeoutMs;
    try {
      return await untilAborted(
        this.stub.updateContainers(req.update ?? [], req.evict ?? [], { timeoutMs: ms }),
        this.opts.signal,
      );
    } catch (err) {
      // Timed out or stopped: the runtime may have stopped reading, and our deadline holds
      // only if nothing waits for it to read what is queued.
      await this.stub.stop({ immediate: true }).catch(() => {});
      if (err instanceof Aborted)
        throw cancelled('while waiting for the answer to UpdateContainers', 'the request may still be applied');
      throw fromPluginError(err, { ...context(this.endpoint, this.stub, this.opts, true), callTimeoutMs: ms });
    }
  }

  /**
   * Leaves the runtime; an embedded simulator keeps running until close(). Cleanly, unless
   * the session's signal fired: then at once.
   */
  async disconnect(): Promise<void> {
    await this.stub.stop({ immediate: this.opts.signal?.aborted === true }).catch(() => {});
  }

  /** Disconnects and stops the simulator, if any. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.disconnect();
    await this.endpoint.close();
  }
}

/** The events by which pods and containers come and go; notifications, each answered at once. */
function lifecycleHandlers(see: (s: LifecycleSighting) => void): PluginHandlers {
  return {
    runPodSandbox: (pod) => see({ event: 'RunPodSandbox', podId: pod.id ?? '' }),
    postCreateContainer: (pod, ctr) =>
      see({ event: 'PostCreateContainer', podId: ctr.podSandboxId || (pod.id ?? ''), containerId: ctr.id ?? '' }),
    removeContainer: (pod, ctr) =>
      see({ event: 'RemoveContainer', podId: ctr.podSandboxId || (pod.id ?? ''), containerId: ctr.id ?? '' }),
    removePodSandbox: (pod) => see({ event: 'RemovePodSandbox', podId: pod.id ?? '' }),
  };
}

/** The pods and containers of the Synchronize messages, in the order they came. */
function decodeState(payloads: readonly Buffer[]): { pods: nri.IPodSandbox[]; containers: nri.IContainer[] } {
  const pods: nri.IPodSandbox[] = [];
  const containers: nri.IContainer[] = [];
  for (const payload of payloads)
    for (const e of synchronizeEntries(payload)) {
      if (e.kind === 'pod') pods.push(decodeSyncEntry(payload, e));
      else containers.push(decodeSyncEntry(payload, e));
    }
  return { pods, containers };
}

function context(endpoint: Endpoint, stub: Stub, opts: SessionOptions, registered: boolean): ErrorContext {
  return {
    label: endpoint.label,
    socketPath: endpoint.socketPath,
    registered,
    runtime: stub.runtime,
    sim: Boolean(opts.target.sim),
  };
}

function cancelled(when: string, outcome = 'nothing was sent'): SessionError {
  return new SessionError('cancelled', `cancelled ${when}: ${outcome}`);
}

/** Registers, takes the state and disconnects (sync dump, doctor, the second look of update). */
export async function fetchState(opts: SessionOptions): Promise<SessionState> {
  const s = await Session.open(opts);
  await s.close();
  return { runtime: s.runtime, pods: s.pods, containers: s.containers };
}

/**
 * Registers, takes the state undecoded and disconnects: the Synchronize messages as they
 * came, for a reader that decodes them piece by piece (sync dump, see src/api/sync-brief.ts).
 */
export async function fetchStatePayloads(
  opts: SessionOptions,
): Promise<{ runtime: RuntimeInfo | undefined; payloads: readonly Buffer[] }> {
  const s = await Session.open(opts);
  await s.close();
  return { runtime: s.runtime, payloads: s.payloads };
}
