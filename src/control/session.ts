// One short-lived plugin connection for update and evict: register, take the
// Synchronize state, send at most what the operator confirmed, disconnect.
import type { nri } from '../api/index.js';
import { openSyncConnection } from '../observe/sync-state.js';
import type { RuntimeInfo, Stub } from '../plugin/index.js';

export interface ControlSessionOptions {
  socketPath?: string | undefined;
  name: string;
  index: string;
  registrationTimeoutMs?: number;
}

/** The vintage label runtimeVintage gives runtimes that drop evictions on the floor. */
export const NO_EVICTION_VINTAGE = 'NRI v0.6 or older';

export function ignoresEvictions(runtime: RuntimeInfo | undefined): boolean {
  return runtime?.vintage === NO_EVICTION_VINTAGE;
}

export class ControlSession {
  private constructor(
    private readonly stub: Stub,
    readonly pods: nri.IPodSandbox[],
    readonly containers: nri.IContainer[],
  ) {}

  /** Registers and resolves with the runtime's state; rejects with a PluginError. */
  static async open(opts: ControlSessionOptions): Promise<ControlSession> {
    const { stub, pods, containers } = await openSyncConnection(opts);
    return new ControlSession(stub, pods, containers);
  }

  get runtime(): RuntimeInfo | undefined {
    return this.stub.runtime;
  }

  get pluginName(): string {
    return this.stub.fullName;
  }

  /** Sends one UpdateContainers request; resolves with the updates the runtime failed to apply. */
  send(req: nri.IUpdateContainersRequest): Promise<nri.IContainerUpdate[]> {
    return this.stub.updateContainers(req.update ?? [], req.evict ?? []);
  }

  close(): Promise<void> {
    return this.stub.stop().catch(() => {});
  }
}
