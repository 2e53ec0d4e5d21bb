// `nrictl sync dump` as a library: register, take the Synchronize state (the SDK joins
// a split one), answer it without changes, disconnect.
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

export async function fetchSyncState(opts: SyncStateOptions): Promise<SyncState> {
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
      // event is answered at once should the runtime send it before we disconnect.
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
  await stub.stop();
  return { runtime: stub.runtime, pods, containers };
}
