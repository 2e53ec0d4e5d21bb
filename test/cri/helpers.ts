// A simulator serving CRI on a real socket in a temp dir, and a client of it: what the
// CRI tests share. Stopped (sockets and dir removed) after each test.
import path from 'node:path';
import { afterEach } from 'vitest';
import { openCriClient, type CriClient, type cri } from '../../src/cri/index.js';
import { planSimulation } from '../../src/runtime/sim/inputs.js';
import { serveCri } from '../../src/runtime/sim/cri/serve.js';
import type { Scenario } from '../../src/runtime/sim/scenario.js';
import { startSim, type Sim } from '../runtime/helpers.js';

export interface CriSim {
  sim: Sim;
  criSocket: string;
  client: CriClient;
}

export function criSimPerTest(): (opts?: {
  preset?: string;
  images?: string[];
  scenario?: Pick<Scenario, 'pods' | 'containers'>;
  requestTimeoutMs?: number;
  clientTimeoutMs?: number;
}) => Promise<CriSim> {
  const open: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of open.splice(0).reverse()) await close();
  });
  return async (opts = {}) => {
    const plan = await planSimulation({ ...(opts.preset ? { preset: opts.preset } : {}) });
    const sim = await startSim(opts.scenario, {
      ...plan.runtime,
      ...(opts.requestTimeoutMs ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
    });
    open.push(() => sim.close());
    const served = await serveCri(sim.runtime, path.join(sim.dir, 'cri.sock'), {
      runtimeName: plan.runtime.runtimeName ?? '',
      runtimeVersion: plan.runtime.runtimeVersion ?? '',
      images: opts.images,
    });
    open.push(() => served.close());
    const client = await openCriClient({ socketPath: served.socketPath, timeoutMs: opts.clientTimeoutMs ?? 5000 });
    open.push(async () => client.close());
    return { sim, criSocket: served.socketPath, client };
  };
}

export const POD: cri.IPodSandboxConfig = {
  metadata: { name: 'web', namespace: 'shop', uid: 'uid-web', attempt: 1 },
  labels: { app: 'web' },
  annotations: { 'team.example.com/owner': 'shop' },
  linux: { cgroupParent: '/kubepods/pod-web' },
};

export function container(name: string, extra: cri.IContainerConfig = {}): cri.IContainerConfig {
  return {
    metadata: { name },
    image: { image: 'registry.k8s.io/e2e-test-images/busybox:1.29-2' },
    command: ['sh', '-c', 'top'],
    labels: { 'io.kubernetes.container.name': name },
    ...extra,
  };
}
