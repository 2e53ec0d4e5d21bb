// `nrictl sync dump` as a library: register, take the Synchronize state (the SDK joins
// a split one), answer it without changes, disconnect. update and evict keep the same
// connection open to send their request (openSyncConnection).
import type { nri } from '../api/index.js';
import { Stub, type RuntimeInfo } from '../plugin/index.js';

export interface SyncStateOptions {
  socketPath?: string | undefined;
  name: string;
  index: string;
  registrationTimeoutMs?: number;
  /** Called once the runtime configured us, i.e. when its state starts to arrive. */
  onReceiving?: () => void;
}

export interface SyncState {
  runtime: RuntimeInfo | undefined;
  pods: nri.IPodSandbox[];
  containers: nri.IContainer[];
}

/** A registered plugin connection and the state the runtime synchronized to it; the caller stops the stub. */
export interface SyncConnection {
  stub: Stub;
  pods: nri.IPodSandbox[];
  containers: nri.IContainer[];
}

/** Registers and resolves with the runtime's state, the connection still open; rejects with a PluginError. */
export async function openSyncConnection(opts: SyncStateOptions): Promise<SyncConnection> {
  let pods: nri.IPodSandbox[] = [];
  let containers: nri.IContainer[] = [];
  const stub = new Stub(
    {
      synchronize: (p, c) => {
        pods = p;
        containers = c;
        return [];
      },
      // A registration must subscribe to something (0 would mean "everything"); this
      // event is answered at once should the runtime send it before we disconnect
      // (or while an operator reads update's preview).
      runPodSandbox: () => {},
    },
    {
      name: opts.name,
      index: opts.index,
      ...(opts.socketPath !== undefined ? { socketPath: opts.socketPath } : {}),
      ...(opts.registrationTimeoutMs !== undefined ? { registrationTimeoutMs: opts.registrationTimeoutMs } : {}),
    },
  );
  if (opts.onReceiving) stub.once('configured', opts.onReceiving);
  await stub.start();
  return { stub, pods, containers };
}

export async function fetchSyncState(opts: SyncStateOptions): Promise<SyncState> {
  const { stub, pods, containers } = await openSyncConnection(opts);
  await stub.stop();
  return { runtime: stub.runtime, pods, containers };
}
