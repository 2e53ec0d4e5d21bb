// Encode/decode cost of a large SynchronizeRequest: 1,000 pods and 5,000 containers
// with Kubernetes-shaped labels, annotations, env, mounts and resources. This is the
// biggest message NRI sends (a whole node's state) and it has to fit in the plugin's
// request timeout (2 s by default) along with everything else. Goal: decode < 100 ms.
import { performance } from 'node:perf_hooks';
import { nri } from '../src/api/index.js';
import { syntheticState } from './synthetic-state.js';

const PODS = 1000;
const CONTAINERS_PER_POD = 5;
const WARMUP = 5;
const RUNS = 15;

const gc = (globalThis as { gc?: () => void }).gc;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

// Wall time and this process's CPU time (user + system, all threads incl. GC helpers):
// on a shared, loaded machine the CPU figure is the steadier of the two.
function measure(label: string, fn: () => unknown): number {
  for (let i = 0; i < WARMUP; i++) fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    gc?.();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const m = median(wall);
  const f = (x: number): string => x.toFixed(1).padStart(7);
  console.log(
    `${label.padEnd(34)} wall median ${f(m)} ms (min ${f(Math.min(...wall))})   cpu median ${f(median(cpu))} ms`,
  );
  return m;
}

const state = syntheticState({ pods: PODS, containersPerPod: CONTAINERS_PER_POD, seed: 42 });
const request: nri.ISynchronizeRequest = { pods: state.pods, containers: state.containers };
const bytes = nri.SynchronizeRequest.encode(request).finish();

console.log(`SynchronizeRequest: ${state.pods.length} pods, ${state.containers.length} containers`);
console.log(
  `encoded size                       ${(bytes.length / 2 ** 20).toFixed(2)} MiB (${bytes.length} bytes; ttrpc limit 4 MiB${bytes.length > 4 << 20 ? ', so a runtime must split it with more=true' : ''})`,
);
console.log(`runs: ${WARMUP} warm-up, median of ${RUNS}${gc ? ', gc between runs' : ''}`);

measure('encode (plain objects)', () => nri.SynchronizeRequest.encode(request).finish());
const decoded = nri.SynchronizeRequest.decode(bytes);
measure('encode (decoded message)', () => nri.SynchronizeRequest.encode(decoded).finish());
const d = measure('decode', () => nri.SynchronizeRequest.decode(bytes));
measure('decode + toObject(longs: String)', () =>
  nri.SynchronizeRequest.toObject(nri.SynchronizeRequest.decode(bytes), { longs: String, enums: String }),
);

// Runtimes from v0.7 split the state into messages under the 4 MiB ttrpc limit
// (more=true), so what a plugin decodes at once is at most one such chunk.
const perObject = bytes.length / (state.pods.length + state.containers.length);
const fit = Math.floor(((4 << 20) - 1024) / perObject);
const chunkPods = Math.max(1, Math.floor(fit / (CONTAINERS_PER_POD + 1)));
const chunk = nri.SynchronizeRequest.encode({
  pods: state.pods.slice(0, chunkPods),
  containers: state.containers.slice(0, chunkPods * CONTAINERS_PER_POD),
  more: true,
}).finish();
console.log(
  `one <4 MiB chunk: ${chunkPods} pods + ${chunkPods * CONTAINERS_PER_POD} containers, ${(chunk.length / 2 ** 20).toFixed(2)} MiB`,
);
measure('decode one chunk', () => nri.SynchronizeRequest.decode(chunk));

// Sanity, so a broken codec cannot post a fast figure.
if (decoded.containers.length !== state.containers.length || decoded.pods[PODS - 1].id !== state.pods[PODS - 1].id) {
  throw new Error('decoded state does not match what was encoded');
}
console.log(`decode goal < 100 ms: ${d < 100 ? 'met' : 'NOT met'} (${d.toFixed(1)} ms)`);
