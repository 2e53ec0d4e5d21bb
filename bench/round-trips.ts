// Shared by the benchmarks that time what a watcher costs the node: a realistic container
// and a loop of simulator createContainer() round trips.
import type { ChildProcess } from 'node:child_process';
import type { nri } from '../src/api/index.js';
import type { SimEvent } from '../src/runtime/events.js';
import type { Runtime } from '../src/runtime/sim/runtime.js';

let seq = 0;
export function container(podId: string): nri.IContainer {
  const id = `bench-${++seq}`;
  return {
    id,
    podSandboxId: podId,
    name: `worker-${seq % 50}`,
    labels: {
      'io.kubernetes.container.name': `worker-${seq % 50}`,
      'io.kubernetes.pod.namespace': 'bench',
      app: 'bench',
    },
    args: ['/app/server', '--port=8080'],
    env: ['PATH=/usr/bin:/bin', 'GOMAXPROCS=2'],
    linux: {
      resources: {
        cpu: { shares: { value: 512 }, quota: { value: 50_000 }, period: { value: 100_000 }, cpus: '0-3' },
        memory: { limit: { value: 256 * 2 ** 20 } },
      },
    },
  };
}

/** createContainer() times (ms) for n containers; each is removed again so the node stays small. */
export async function createRoundTrips(runtime: Runtime, podId: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = container(podId);
    const t0 = process.hrtime.bigint();
    await runtime.createContainer(podId, c);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    await runtime.removeContainer(c.id!);
  }
  return times;
}

/** Resolves once the simulator synchronized `plugin` ("99-nrictl-logs"); rejects when `child` exits first. */
export function synchronized(runtime: Runtime, plugin: string, child?: ChildProcess): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onEvent = (e: SimEvent) => {
      if (e.type === 'synchronized' && e.plugin === plugin) {
        runtime.off('event', onEvent);
        resolve();
      }
    };
    runtime.on('event', onEvent);
    child?.once('exit', (code) => reject(new Error(`${plugin} exited with ${code}`)));
  });
}
