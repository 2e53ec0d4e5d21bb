// A small runtime-side peer for the plugin tests: a unix socket listener, the NRI mux,
// the Runtime service on connection 2 and a client for the Plugin service on connection 1.
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { METHODS, PLUGIN_SERVICE, RUNTIME_SERVICE, nri } from '../../src/api/index.js';
import { Mux, PLUGIN_SERVICE_CONN, RUNTIME_SERVICE_CONN } from '../../src/mux/index.js';
import { TtrpcClient, TtrpcServer } from '../../src/ttrpc/index.js';

export interface PeerBehaviour {
  /** Throw to reject the registration; return a never-settling promise to leave it unanswered. */
  register?(req: nri.RegisterPluginRequest): Promise<void> | void;
  /** What UpdateContainers answers as failed. */
  failed?(req: nri.UpdateContainersRequest): nri.IContainerUpdate[];
  /** Awaited before UpdateContainers is answered: a never-settling promise stalls it. */
  update?(req: nri.UpdateContainersRequest): Promise<void> | void;
}

export class PeerSession {
  readonly mux: Mux;
  readonly client: TtrpcClient;
  readonly registered: Promise<nri.RegisterPluginRequest>;
  readonly updates: nri.UpdateContainersRequest[] = [];

  constructor(stream: Duplex, behaviour: PeerBehaviour = {}) {
    this.mux = new Mux(stream, { label: 'test runtime' });
    const server = new TtrpcServer();
    let onRegister!: (r: nri.RegisterPluginRequest) => void;
    this.registered = new Promise((resolve) => (onRegister = resolve));
    server.register(RUNTIME_SERVICE, 'RegisterPlugin', async (payload) => {
      const req = nri.RegisterPluginRequest.decode(payload);
      onRegister(req);
      await behaviour.register?.(req);
      return nri.Empty.encode({}).finish();
    });
    server.register(RUNTIME_SERVICE, 'UpdateContainers', async (payload) => {
      const req = nri.UpdateContainersRequest.decode(payload);
      this.updates.push(req);
      await behaviour.update?.(req);
      return nri.UpdateContainersResponse.encode({ failed: behaviour.failed?.(req) ?? [] }).finish();
    });
    server.serve(this.mux.open(RUNTIME_SERVICE_CONN));
    this.client = new TtrpcClient(this.mux.open(PLUGIN_SERVICE_CONN));
  }

  /** Calls a Plugin service method with a plain request object; resolves with the decoded answer. */
  async call<T = Record<string, unknown>>(method: string, req: object, timeoutMs = 5000): Promise<T> {
    const types = METHODS.get(`${PLUGIN_SERVICE}/${method}`);
    if (!types) throw new Error(`no such Plugin method ${method}`);
    return types.response.decode(await this.callRaw(method, req, timeoutMs)) as T;
  }

  /** As call(), but resolves with the answer's bytes as the plugin put them on the wire. */
  async callRaw(method: string, req: object, timeoutMs = 5000): Promise<Buffer> {
    const types = METHODS.get(`${PLUGIN_SERVICE}/${method}`);
    if (!types) throw new Error(`no such Plugin method ${method}`);
    return this.client.call(PLUGIN_SERVICE, method, types.request.encode(req).finish(), { timeoutMs });
  }

  /** Register (already awaited by the caller or not), Configure, then Synchronize in the given parts. */
  async handshake(
    configure: nri.IConfigureRequest,
    parts: nri.ISynchronizeRequest[] = [{}],
  ): Promise<{
    configured: nri.ConfigureResponse;
    synced: nri.SynchronizeResponse[];
  }> {
    await this.registered;
    const configured = await this.call<nri.ConfigureResponse>('Configure', configure);
    const synced: nri.SynchronizeResponse[] = [];
    for (const part of parts) synced.push(await this.call<nri.SynchronizeResponse>('Synchronize', part));
    return { configured, synced };
  }

  close(): void {
    this.mux.close();
  }
}

/** A listening "runtime" in a fresh temporary directory. */
export class RuntimePeer {
  readonly sessions: PeerSession[] = [];
  #waiting: Array<(s: PeerSession) => void> = [];
  #sockets = new Set<net.Socket>();
  #served = 0;

  private constructor(
    readonly dir: string,
    readonly socketPath: string,
    private readonly server: net.Server,
    behaviour: PeerBehaviour,
  ) {
    server.on('connection', (sock) => {
      this.#sockets.add(sock);
      sock.on('close', () => this.#sockets.delete(sock));
      const s = new PeerSession(sock, behaviour);
      this.sessions.push(s);
      const waiter = this.#waiting.shift();
      if (waiter) {
        this.#served++;
        waiter(s);
      }
    });
  }

  static async listen(behaviour: PeerBehaviour = {}): Promise<RuntimePeer> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nri-'));
    const socketPath = path.join(dir, 'nri.sock');
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, resolve);
    });
    return new RuntimePeer(dir, socketPath, server, behaviour);
  }

  /** The next session no caller has taken yet. */
  next(): Promise<PeerSession> {
    if (this.#served < this.sessions.length) return Promise.resolve(this.sessions[this.#served++]);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  async close(): Promise<void> {
    for (const s of this.sessions) s.close();
    for (const sock of this.#sockets) sock.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** A ConfigureRequest as a v0.12 runtime sends it. */
export const MODERN_CONFIGURE: nri.IConfigureRequest = {
  runtimeName: 'test-runtime',
  runtimeVersion: '1.0.0',
  registrationTimeout: 5000,
  requestTimeout: 2000,
  NRIVersion: 'v0.12.0',
};

/** A ConfigureRequest as containerd 1.7 / iSulad (NRI v0.6.1) send it: no timeouts, no version. */
export const V061_CONFIGURE: nri.IConfigureRequest = { runtimeName: 'isulad', runtimeVersion: '2.1.5' };
