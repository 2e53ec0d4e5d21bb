// A long-lived session for `nrictl logs`: register with the caller's handlers, serve
// events until stopped, and, with reconnect on, come back after the runtime went away
// (a containerd restart is routine on a node). The handlers object is the same across
// registrations, so whatever it counts survives a reconnect.
import { EventEmitter } from 'node:events';
import { Stub, type PluginHandlers, type RuntimeInfo } from '../plugin/index.js';
import { openEndpoint, type Endpoint, type EmbeddedRuntime } from './endpoint.js';
import { SessionError } from './errors.js';
import { checkIdentity } from './identity.js';
import { fromPluginError } from './plugin-errors.js';
import { InterruptibleWait } from './interruptible-wait.js';
import type { SessionOptions } from './session.js';

export interface Backoff {
  /** First wait after the runtime went away. */
  initialMs: number;
  /** The wait doubles up to this. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 10_000 };

export interface WatchOptions extends Omit<SessionOptions, 'signal'> {
  /** Subscription mask (clipped by the SDK to what the runtime knows). */
  events: number;
  handlers: PluginHandlers;
  /** Register again after the runtime went away; undefined or false: end instead. */
  reconnect?: Backoff | false | undefined;
  /**
   * A runtime that is not there at start (a DaemonSet's pod may start before the
   * runtime's NRI is up) is waited for: the first registration is tried again with this
   * backoff, a 'waiting' notice each time, until it is done or stop() is called.
   * Undefined or false: start() rejects at the first failure.
   */
  waitForRuntime?: Backoff | false | undefined;
}

export type WatchNotice =
  /** With waitForRuntime: the first registration failed; the next try in `inMs`. */
  | { kind: 'waiting'; error: SessionError; inMs: number }
  /** The connection was lost; with reconnect on, a new registration follows. */
  | { kind: 'gone'; error: SessionError; at: number }
  /** An attempt to register again failed; the next one in `inMs`. */
  | { kind: 'retrying'; error: SessionError; inMs: number }
  /** Registered again; events between `since` and now were missed. */
  | { kind: 'back'; gapMs: number; since: number; runtime: RuntimeInfo | undefined };

/**
 * Events: 'notice' (WatchNotice), and 'end' (err?: SessionError) once watching is over
 * for good: the runtime went away without reconnect (err set), or stop() was called.
 */
export class EventWatch extends EventEmitter {
  private stub: Stub | undefined;
  private endpoint: Endpoint | undefined;
  private stopped = false;
  private readonly pause = new InterruptibleWait();
  private ended = false;

  constructor(private readonly opts: WatchOptions) {
    super();
  }

  get runtime(): RuntimeInfo | undefined {
    return this.stub?.runtime;
  }

  /** The mask the runtime accepted at the last registration. */
  get events(): number {
    return this.stub?.events ?? 0;
  }

  get pluginName(): string {
    return `${this.opts.index}-${this.opts.name}`;
  }

  get label(): string {
    return this.endpoint?.label ?? this.opts.target.socketPath;
  }

  get sim(): EmbeddedRuntime | undefined {
    return this.endpoint?.sim;
  }

  /**
   * The first registration: resolves true once synchronized, rejects with a
   * SessionError. With waitForRuntime, only what no retry mends (a usage error: a bad
   * name, a scenario, a socket path too long) rejects; stop() during the wait resolves false.
   */
  async start(): Promise<boolean> {
    checkIdentity(this.opts.name, this.opts.index);
    this.opts.onProgress?.('connecting');
    this.endpoint = await openEndpoint(this.opts.target, this.opts.onWarning);
    const backoff = this.opts.waitForRuntime;
    let wait = backoff ? backoff.initialMs : 0;
    for (;;) {
      try {
        await this.register();
        return true;
      } catch (err) {
        const mended = backoff && err instanceof SessionError && err.kind !== 'usage';
        if (!mended || this.stopped) {
          await this.endpoint.close();
          if (mended) return false;
          throw err;
        }
        this.emit('notice', { kind: 'waiting', error: err, inMs: wait } satisfies WatchNotice);
        await this.pause.for(wait);
        if (this.stopped) {
          await this.endpoint.close();
          return false;
        }
        wait = Math.min(wait * 2, backoff.maxMs);
      }
    }
  }

  /**
   * Leaves the runtime (and stops a simulator); a pending reconnect is abandoned. With
   * `immediate` (the user stopped the command) the connection is dropped at once, not
   * ended cleanly: a runtime that stopped reading must not delay the end.
   */
  async stop(opts: { immediate?: boolean } = {}): Promise<void> {
    this.stopped = true;
    this.pause.interrupt();
    await this.stub?.stop(opts).catch(() => {});
    await this.endpoint?.close();
    this.end(undefined);
  }

  private async register(): Promise<void> {
    const endpoint = this.endpoint!;
    const stub = new Stub(this.opts.handlers, {
      name: this.opts.name,
      index: this.opts.index,
      socketPath: endpoint.socketPath,
      events: this.opts.events,
      ...(this.opts.timeoutMs !== undefined ? { registrationTimeoutMs: this.opts.timeoutMs } : {}),
    });
    this.stub = stub;
    stub.once('configured', () => this.opts.onProgress?.('receiving'));
    try {
      await stub.start();
    } catch (err) {
      throw fromPluginError(err, {
        label: endpoint.label,
        socketPath: endpoint.socketPath,
        registered: false,
        runtime: stub.runtime,
        sim: Boolean(endpoint.sim),
      });
    }
    stub.once('close', (err?: Error) => {
      if (this.stopped) return;
      const at = Date.now();
      const error = (
        err
          ? fromPluginError(err, {
              label: endpoint.label,
              socketPath: endpoint.socketPath,
              registered: true,
              runtime: stub.runtime,
              sim: Boolean(endpoint.sim),
            })
          : undefined
      ) as SessionError | undefined;
      const gone =
        error instanceof SessionError
          ? error
          : new SessionError('runtime-gone', `runtime closed the connection (${endpoint.label})`, {
              socketPath: endpoint.socketPath,
              registered: true,
            });
      this.emit('notice', { kind: 'gone', error: gone, at } satisfies WatchNotice);
      if (!this.opts.reconnect) {
        this.end(gone);
        return;
      }
      void this.comeBack(this.opts.reconnect, at);
    });
  }

  private async comeBack(backoff: Backoff, since: number): Promise<void> {
    let wait = backoff.initialMs;
    while (!this.stopped) {
      await this.pause.for(wait);
      if (this.stopped) return;
      try {
        await this.register();
        if (this.stopped) {
          await this.stub?.stop().catch(() => {});
          return;
        }
        this.emit('notice', {
          kind: 'back',
          gapMs: Date.now() - since,
          since,
          runtime: this.stub?.runtime,
        } satisfies WatchNotice);
        return;
      } catch (err) {
        if (this.stopped) return;
        wait = Math.min(wait * 2, backoff.maxMs);
        const error =
          err instanceof SessionError ? err : new SessionError('runtime-gone', (err as Error).message, { cause: err });
        this.emit('notice', { kind: 'retrying', error, inMs: wait } satisfies WatchNotice);
      }
    }
  }

  private end(err: SessionError | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.emit('end', err);
  }
}
