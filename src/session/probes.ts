// Several transient plugins registered on one runtime at chosen indexes (trace's
// probes), held and released as one: the same identity rules, socket check, --sim,
// deadlines and typed errors as a single Session. A set is whole or not at all: when one
// registration fails, or the runtime drops one probe later, every other probe leaves too,
// so no probe is left registered that its owner no longer watches.
import { EventEmitter } from 'node:events';
import type { nri } from '../api/index.js';
import { Stub, type PluginHandlers, type RuntimeInfo } from '../plugin/index.js';
import { isEndpoint, openEndpoint, type Endpoint, type EmbeddedRuntime, type SessionTarget } from './endpoint.js';
import { SessionError } from './errors.js';
import { checkIdentity } from './identity.js';
import { fromPluginError } from './plugin-errors.js';
import type { SessionOptions } from './session.js';

export interface ProbeSpec {
  /** Two digits; no two probes of a set may share one. */
  index: string;
  handlers: PluginHandlers;
  /** Subscription mask, clipped by the SDK to the events the runtime knows. */
  events: number;
}

export interface ProbeSetOptions extends Omit<SessionOptions, 'target' | 'index'> {
  /**
   * Where to register: a target (the socket, checked and warned about, or --sim started
   * here and stopped by close()), or an endpoint the caller opened and closes itself
   * (trace reads the simulator's plugins before it knows where its probes go).
   */
  target: SessionTarget | Endpoint;
  /** The plugins, registered in parallel under the one name `name`. */
  probes: ProbeSpec[];
}

/** One registered probe, as the runtime accepted it. */
export interface ProbeInfo {
  index: string;
  /** "19-nrictl-trace". */
  pluginName: string;
  /** The mask the runtime accepted (what the probe asked for that the runtime knows). */
  events: number;
}

/**
 * Events: 'end' (err?: SessionError), once, when the set is over: err set when the
 * runtime dropped a probe (every other probe has then left too), undefined after close()
 * or the caller's signal.
 */
export class ProbeSet extends EventEmitter {
  /** Set before the first probe is stopped: a stop can report its close synchronously. */
  private ending = false;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly stubs: Stub[],
    private readonly endpoint: Endpoint,
    private readonly ownsEndpoint: boolean,
    private readonly configuredTimeout: number | undefined,
    private readonly signal: AbortSignal | undefined,
  ) {
    super();
  }

  /**
   * Registers every probe; resolves once each was synchronized. On any failure (or the
   * signal) the probes already registered leave again, a simulator started here stops,
   * and it rejects with the SessionError of the first registration that failed
   * ('cancelled' for the signal).
   */
  static async open(opts: ProbeSetOptions): Promise<ProbeSet> {
    if (opts.probes.length === 0) throw new RangeError('ProbeSet.open: no probes to register');
    const seen = new Set<string>();
    for (const p of opts.probes) {
      checkIdentity(opts.name, p.index);
      // The runtime orders plugins on one index in no defined order: two probes there are useless.
      if (seen.has(p.index))
        throw new SessionError('bad-identity', `two probes at index ${p.index}: give each probe an index of its own`);
      seen.add(p.index);
    }
    if (opts.signal?.aborted) throw cancelled('before connecting');
    opts.onProgress?.('connecting');
    const owned = !isEndpoint(opts.target);
    const endpoint = isEndpoint(opts.target) ? opts.target : await openEndpoint(opts.target, opts.onWarning);
    if (opts.signal?.aborted) {
      if (owned) await endpoint.close();
      throw cancelled('before connecting');
    }
    const stubs = opts.probes.map(
      (p) =>
        new Stub(p.handlers, {
          name: opts.name,
          index: p.index,
          socketPath: endpoint.socketPath,
          events: p.events,
          ...(opts.timeoutMs !== undefined ? { registrationTimeoutMs: opts.timeoutMs } : {}),
        }),
    );
    let configuredTimeout: number | undefined;
    stubs[0].once('configured', (req: nri.IConfigureRequest) => {
      // Runtimes of NRI v0.6 and older do not say; then the caller decides what applies.
      if (req.requestTimeout && Number(req.requestTimeout) > 0) configuredTimeout = Number(req.requestTimeout);
      opts.onProgress?.('receiving');
    });

    // The first failure, in the order they happen: the probes stopped because of it then
    // fail too ("stopped during ..."), and must not hide it.
    const failures: Array<{ err: unknown; stub: Stub }> = [];
    const stopAll = (immediate = false): Promise<unknown> =>
      Promise.all(stubs.map((s) => s.stop({ immediate }).catch(() => {})));
    const onAbort = (): void => void stopAll(true);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.all(
        stubs.map((s) =>
          s.start().catch((err: unknown) => {
            failures.push({ err, stub: s });
            if (failures.length === 1) void stopAll();
          }),
        ),
      );
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
    }
    const first = failures[0];
    if (first || opts.signal?.aborted) {
      await stopAll(opts.signal?.aborted === true);
      if (owned) await endpoint.close();
      if (opts.signal?.aborted || !first) throw cancelled('while registering');
      throw fromPluginError(first.err, {
        label: endpoint.label,
        socketPath: endpoint.socketPath,
        registered: false,
        runtime: first.stub.runtime,
        sim: Boolean(endpoint.sim),
      });
    }
    const set = new ProbeSet(stubs, endpoint, owned, configuredTimeout, opts.signal);
    set.watch();
    return set;
  }

  /** What the runtime said in Configure (the first probe's view; all probes share one runtime). */
  get runtime(): RuntimeInfo | undefined {
    return this.stubs[0].runtime;
  }

  get probes(): ProbeInfo[] {
    return this.stubs.map((s) => ({ index: s.index, pluginName: s.fullName, events: s.events }));
  }

  /** The request timeout the runtime sent in Configure; undefined when it did not say (NRI v0.6 and older). */
  get configuredRequestTimeoutMs(): number | undefined {
    return this.configuredTimeout;
  }

  get socketPath(): string {
    return this.endpoint.socketPath;
  }

  /** "/var/run/nri/nri.sock" or "the embedded simulator (demo.yaml)". */
  get label(): string {
    return this.endpoint.label;
  }

  get sim(): EmbeddedRuntime | undefined {
    return this.endpoint.sim;
  }

  /** Deregisters every probe, and stops a simulator this set started. Safe to call twice. */
  close(): Promise<void> {
    return this.finish(undefined);
  }

  private watch(): void {
    for (const s of this.stubs) {
      s.once('close', (err?: Error) => {
        if (this.ending) return; // our own close, or a sibling's loss, is already ending the set
        const at = {
          label: this.endpoint.label,
          socketPath: this.endpoint.socketPath,
          registered: true,
          runtime: s.runtime,
          sim: Boolean(this.endpoint.sim),
        };
        const mapped = err ? fromPluginError(err, at) : undefined;
        const gone =
          mapped instanceof SessionError
            ? mapped
            : new SessionError('runtime-gone', `runtime closed the connection (${this.endpoint.label})`, {
                socketPath: this.endpoint.socketPath,
                registered: true,
                cause: err,
              });
        void this.finish(gone);
      });
    }
    if (this.signal) {
      // Stopped by the user: the probes leave at once, whatever the runtime still has to read.
      const onAbort = (): void => void this.finish(undefined, true);
      if (this.signal.aborted) onAbort();
      else this.signal.addEventListener('abort', onAbort, { once: true });
      this.once('end', () => this.signal!.removeEventListener('abort', onAbort));
    }
  }

  private finish(err: SessionError | undefined, immediate = false): Promise<void> {
    this.ending = true;
    this.closing ??= (async () => {
      await Promise.all(this.stubs.map((s) => s.stop({ immediate }).catch(() => {})));
      if (this.ownsEndpoint) await this.endpoint.close();
      this.emit('end', err);
    })();
    return this.closing;
  }
}

function cancelled(when: string): SessionError {
  return new SessionError('cancelled', `cancelled ${when}: no probe is left registered`);
}
