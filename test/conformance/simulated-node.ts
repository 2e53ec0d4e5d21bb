// The simulator standing in for a node: containerd v2.3.4 on real NRI and CRI sockets,
// started before a file's tests and stopped after them, and a plan of checks against it.
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ConformancePlan } from '../../src/conformance/index.js';
import { SUBSCRIBED } from '../../src/conformance/test-plugin.js';
import { serveCri } from '../../src/runtime/sim/cri/serve.js';
import { ProbeSet } from '../../src/session/index.js';
import type { nri } from '../../src/api/index.js';
import type { NodeSource } from '../../src/conformance/node-view.js';
import { startRuntime, type SimHandle } from '../commands/nri-cli.js';

export interface SimulatedNode {
  sim: SimHandle;
  criSocket: string;
  /** Shuts the CRI server down (once; the file's end does it otherwise). */
  closeCri(): Promise<void>;
  /**
   * The checks named by `focus`, planned against this node without asking; the look beyond
   * CRI reads the simulator's process table unless `look` says where else.
   */
  plan(focus: string[], signal: AbortSignal, look?: NodeSource): Promise<ConformancePlan>;
  /** A plugin of the test's own at index 50, told of each RunPodSandbox (the runtime waits for it). */
  onRunPod(name: string, handler: (pod: nri.IPodSandbox) => Promise<void>): Promise<ProbeSet>;
}

export function simulatedNode(): SimulatedNode {
  const node = {} as SimulatedNode;
  beforeAll(async () => {
    node.sim = await startRuntime({}, { runtimeName: 'containerd', runtimeVersion: 'v2.3.4' });
    const served = await serveCri(node.sim.runtime, path.join(path.dirname(node.sim.socketPath), 'cri.sock'), {
      runtimeName: 'containerd',
      runtimeVersion: 'v2.3.4',
    });
    let closed: Promise<void> | undefined;
    node.criSocket = served.socketPath;
    node.closeCri = () => (closed ??= served.close());
    node.plan = (focus, signal, look) =>
      ConformancePlan.open({
        node: look ?? node.sim.runtime.node,
        criSocket: node.criSocket,
        nriSocket: node.sim.socketPath,
        pace: 'sim',
        terminal: false,
        ask: false,
        focus,
        signal,
      });
    node.onRunPod = (name, handler) =>
      ProbeSet.open({
        target: { socketPath: node.sim.socketPath },
        name,
        probes: [{ index: '50', events: SUBSCRIBED, handlers: { runPodSandbox: handler } }],
      });
  });
  afterAll(async () => {
    await node.closeCri?.();
    await node.sim?.stop();
  });
  return node;
}
