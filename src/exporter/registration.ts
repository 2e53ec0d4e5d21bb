// The exporter's one registration with the runtime: kept for as long as it runs, on the
// fewest events the runtime allows, every request answered at once, the runtime's going
// away noticed (nrictl_nri_up 0) and a new registration made with backoff. A runtime that
// is not there yet at start is waited for the same way: a DaemonSet's pod may well start
// before the runtime's NRI is up.
import { Event, eventBit, runtimeVintage, type nri } from '../api/index.js';
import {
  EventWatch,
  sessionNotes,
  type Backoff,
  type PluginHandlers,
  type RuntimeInfo,
  type SessionNote,
  type SessionTarget,
  type WatchNotice,
  type SessionError,
} from '../session/index.js';

/**
 * A plugin must take at least one event (a mask of 0 reads as "every event"). The rarest:
 * UpdatePodSandbox (a pod's resources changed in place) where the runtime knows it (NRI
 * v0.10 on), else RemovePodSandbox (once per pod, after everything else). Never
 * CreateContainer or ValidateContainerAdjustment: the exporter stays off the path of every
 * container's creation.
 */
const RAREST = eventBit(Event.UPDATE_POD_SANDBOX);
const FALLBACK = eventBit(Event.REMOVE_POD_SANDBOX);

export type RegistrationNote =
  | SessionNote
  | {
      kind: 'registered';
      plugin: string;
      runtime: string;
      events: string;
      socketPath: string;
      sim?: string | undefined;
    }
  /** WatchNotice's 'waiting': not registered yet (the first time), the next try in inMs. */
  | WatchNotice;

export interface RegistrationOptions {
  target: SessionTarget;
  name: string;
  index: string;
  timeoutMs?: number | undefined;
  backoff: Backoff;
  notes: (note: RegistrationNote) => void;
  /** A registration done (the first, or again after the runtime came back). */
  onRegistered: () => void;
  /** An attempt that failed: reaching the socket ('connect') or being registered ('register'). */
  onError: (kind: 'connect' | 'register') => void;
}

/** The runtime as the contract's nrictl_runtime_info labels it. */
export interface RuntimeLabels {
  runtime: string;
  version: string;
  nriVersion: string;
}

export class Registration {
  private watch: EventWatch | undefined;
  private live = false;
  private stopped = false;
  private lastRuntime: RuntimeLabels | undefined;
  private requestTimeoutMs: number | undefined;
  private readonly handlers: PluginHandlers;

  constructor(private readonly opts: RegistrationOptions) {
    this.handlers = {
      configure: (req: nri.IConfigureRequest) => {
        const timeout = Number(req.requestTimeout ?? 0);
        this.requestTimeoutMs = timeout > 0 ? timeout : undefined;
        return { events: runtimeVintage(req).knownEventsMask & RAREST ? RAREST : FALLBACK };
      },
      // The state is answered unread and dropped: the exporter keeps nothing per pod.
      synchronizeRaw: () => {},
      updatePodSandbox: () => {},
      removePodSandbox: () => {},
    };
  }

  get fullName(): string {
    return `${this.opts.index}-${this.opts.name}`;
  }

  /** Registered, synchronized, the connection open. */
  get up(): boolean {
    return this.live;
  }

  get runtime(): RuntimeLabels | undefined {
    return this.lastRuntime;
  }

  /** The request timeout of the last Configure; undefined when the runtime did not send one. */
  get requestTimeoutSeconds(): number | undefined {
    return this.requestTimeoutMs === undefined ? undefined : this.requestTimeoutMs / 1000;
  }

  /** The socket the registration uses (the simulator's, with --sim), once known. */
  get socketPath(): string | undefined {
    return (
      this.watch?.sim?.socketPath ?? (this.opts.target.sim === undefined ? this.opts.target.socketPath : undefined)
    );
  }

  /**
   * Registers, EventWatch trying again with backoff (waitForRuntime) until it is done or
   * stop() is called. Rejects only for what no retry mends: a bad name or index, a
   * scenario that cannot be loaded.
   */
  async start(): Promise<void> {
    if (this.stopped) return;
    const watch = new EventWatch({
      target: this.opts.target,
      name: this.opts.name,
      index: this.opts.index,
      timeoutMs: this.opts.timeoutMs,
      ...sessionNotes(this.opts.target, this.opts.notes),
      events: RAREST | FALLBACK,
      handlers: this.handlers,
      reconnect: this.opts.backoff,
      waitForRuntime: this.opts.backoff,
    });
    this.watch = watch;
    watch.on('notice', (n: WatchNotice) => this.notice(n));
    const registered = await watch.start();
    if (!registered || this.stopped) return;
    this.registered(watch.runtime);
    this.opts.notes({
      kind: 'registered',
      plugin: this.fullName,
      runtime: watch.runtime?.label ?? 'the runtime',
      events: watch.events & RAREST ? 'UpdatePodSandbox' : 'RemovePodSandbox',
      socketPath: watch.sim?.socketPath ?? this.opts.target.socketPath,
      sim: this.opts.target.sim,
    });
  }

  /** With --sim: the plugins the simulated runtime has now (it is the node's runtime there). */
  simPlugins(): Array<{ name: string; external: boolean }> | undefined {
    return this.watch?.sim?.runtime.plugins();
  }

  /** Leaves the runtime (closing the connection ends the registration) and stops a simulator. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.live = false;
    await this.watch?.stop();
  }

  private notice(n: WatchNotice): void {
    if (n.kind === 'gone') this.live = false;
    else if (n.kind === 'retrying' || n.kind === 'waiting') this.opts.onError(errorKind(n.error));
    else this.registered(n.runtime);
    this.opts.notes(n);
  }

  private registered(runtime: RuntimeInfo | undefined): void {
    this.live = true;
    if (runtime)
      this.lastRuntime = {
        runtime: runtime.kind === 'isulad' ? 'isulad' : runtime.name,
        version: runtime.version,
        nriVersion: runtime.nriVersion ?? '',
      };
    this.opts.onRegistered();
  }
}

/** Nothing to reach (no socket, refused, permission) or reached and not registered. */
function errorKind(err: SessionError): 'connect' | 'register' {
  return err.kind === 'connect' ? 'connect' : 'register';
}
