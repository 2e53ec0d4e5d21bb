// The node state the encoding benchmarks use: the runtime's generator in its full
// detail (k8s labels and annotations, env, mounts, cgroup paths, linux resources),
// so that benchmarks and `nrictl sim --generate` draw from one generator. Same seed,
// same state, so figures are comparable from run to run.
import type { nri } from '../src/api/index.js';
import { generateScenario } from '../src/runtime/sim/generate.js';

export interface SyntheticStateOptions {
  pods: number;
  containersPerPod: number;
  seed?: number;
}

export function syntheticState(opts: SyntheticStateOptions): { pods: nri.IPodSandbox[]; containers: nri.IContainer[] } {
  const { pods, containers } = generateScenario({ ...opts, detail: 'full' });
  return { pods, containers };
}
